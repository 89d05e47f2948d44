// Every skeleton × search kind gives exactly the seq answer with 1, 2 and 4 workers, repeatedly.
#include <gtest/gtest.h>

#include <numeric>

#include "../core/toy_models.hpp"
#include "jackdaw/skeletons/seq.hpp"
#include "skeleton_runner.hpp"

using namespace jackdaw;

namespace {

constexpr int kRepeats = 20;

struct Case {
  std::string skeleton;
  int workers;
};
std::string caseName(const testing::TestParamInfo<Case>& i) {
  return i.param.skeleton + "_w" + std::to_string(i.param.workers);
}
std::vector<Case> allCases() {
  std::vector<Case> v;
  for (const auto& s : partest::skeletons())
    for (int w : {1, 2, 4}) v.push_back({s, w});
  return v;
}

class SkeletonVsSeq : public testing::TestWithParam<Case> {
 protected:
  template <class P>
  P small(P p) const {
    return p;  // -d 2 and -b 7 (tiny, so budget splits often) are partest::Split's defaults
  }
};

TEST_P(SkeletonVsSeq, BinaryTreeNodeCount) {
  SearchParams<long long> p = small(SearchParams<long long>{});
  p.maxDepth = 11;
  const std::uint64_t expected = (std::uint64_t{1} << 12) - 1;
  for (int rep = 0; rep < kRepeats; ++rep) {
    std::vector<WorkerReport> reports;
    auto r = partest::run<toy::BinaryTree, Enumeration<CountNodes>>(GetParam().skeleton, GetParam().workers, {}, {},
                                                                     p, &reports);
    ASSERT_EQ(r.enumerator.get(), expected) << "run " << rep;
    ASSERT_EQ(r.stats.nodes, expected);
    ASSERT_TRUE(r.complete());
    ASSERT_EQ(reports.size(), static_cast<std::size_t>(GetParam().workers));
    std::uint64_t nodes = 0, tasks = 0;
    for (const auto& w : reports) {
      nodes += w.stats.nodes;
      tasks += w.tasks;
      EXPECT_GT(w.workRate, 0.0);
    }
    ASSERT_EQ(nodes, expected);
    // Tasks created are fixed by the skeleton's rule wherever it does not depend on timing.
    const std::string& skel = GetParam().skeleton;
    if (skel == "depth_bounded_exact") {  // the root and every node above depth 2
      ASSERT_EQ(tasks, 1u + 2u + 4u);
    }
    if (skel == "depth_bounded") {  // those, and any a hungry worker was handed
      ASSERT_GE(tasks, 1u + 2u + 4u);
    }
    if (skel.starts_with("ordered")) {  // the depth-2 subtrees
      ASSERT_EQ(tasks, 4u);
    }
    if (skel == "budget" || skel == "budget_exact") {  // 7 backtracks cannot cover 4095 nodes
      ASSERT_GT(tasks, 1u);
    }
    if (skel.starts_with("stack_stealing") && GetParam().workers == 1) {  // nobody asks
      ASSERT_EQ(tasks, 1u);
    }
  }
}

TEST_P(SkeletonVsSeq, BinaryTreeCountByDepthInBulk) {
  SearchParams<long long> p = small(SearchParams<long long>{});
  p.maxDepth = 10;
  for (int rep = 0; rep < kRepeats; ++rep) {
    auto r = partest::run<toy::BinaryTree, Enumeration<CountByDepth<toy::DepthOf>>>(GetParam().skeleton,
                                                                                    GetParam().workers, {}, {}, p);
    ASSERT_EQ(r.enumerator.get().size(), 11u);
    for (int d = 0; d <= 10; ++d) ASSERT_EQ(r.enumerator.get()[d], std::uint64_t{1} << d) << "depth " << d;
  }
}

TEST_P(SkeletonVsSeq, TwoLevelBulkCountingKeepsCountsAndTasks) {
  // Counting the last two levels in bulk (QueensTwoLevels) against the last one (Queens): the same
  // counts, nodes and backtracks on every skeleton, and the same tasks where the skeleton's rule
  // fixes them by depth (depth_bounded, ordered). Budget's rule looks at its count every few
  // visits (budget::detail::budgetEvery), and bulk counting visits fewer nodes, so it may split
  // elsewhere; each of its runs is still the same task tree on 1 and 2 workers (check_trace_app.py --exact).
  using E = Enumeration<CountByDepth<toy::RowOf>>;
  SearchParams<int> p = small(SearchParams<int>{});
  p.maxDepth = 7;
  for (int rep = 0; rep < 5; ++rep) {
    std::vector<WorkerReport> oneReports, twoReports;
    auto one = partest::run<toy::Queens, E>(GetParam().skeleton, GetParam().workers, {9}, {}, p, &oneReports);
    auto two = partest::run<toy::QueensTwoLevels, E>(GetParam().skeleton, GetParam().workers, {9}, {}, p, &twoReports);
    ASSERT_EQ(two.enumerator.get(), one.enumerator.get()) << "run " << rep;
    ASSERT_EQ(two.stats.nodes, one.stats.nodes);
    ASSERT_EQ(two.stats.maxDepth, one.stats.maxDepth);
    auto tasks = [](const std::vector<WorkerReport>& ws) {
      std::uint64_t t = 0;
      for (const auto& w : ws) t += w.tasks;
      return t;
    };
    const std::string& skel = GetParam().skeleton;
    if (skel.ends_with("_exact") || skel.starts_with("ordered")) {
      ASSERT_EQ(two.stats.backtracks, one.stats.backtracks) << skel;
    }
    if ((skel.ends_with("_exact") && !skel.starts_with("budget")) || skel.starts_with("ordered")) {
      ASSERT_EQ(tasks(twoReports), tasks(oneReports)) << skel;
    }
  }
}

TEST_P(SkeletonVsSeq, DroppedLeavesKeepCounts) {
  // Leaves dropped by the generator and counted from their parent (QueensUnleaved) against leaves
  // built (Queens): the same counts, nodes and deepest level on every skeleton.
  using E = Enumeration<CountByDepth<toy::RowOf>>;
  for (int d : {-1, 7}) {
    SearchParams<int> p = small(SearchParams<int>{});
    p.maxDepth = d;
    for (int rep = 0; rep < 3; ++rep) {
      auto built = partest::run<toy::Queens, E>(GetParam().skeleton, GetParam().workers, {9}, {}, p);
      auto dropped = partest::run<toy::QueensUnleaved, E>(GetParam().skeleton, GetParam().workers, {9}, {}, p);
      ASSERT_EQ(dropped.enumerator.get(), built.enumerator.get()) << "depth " << d << " run " << rep;
      ASSERT_EQ(dropped.stats.nodes, built.stats.nodes);
      ASSERT_EQ(dropped.stats.maxDepth, built.stats.maxDepth);
    }
  }
}

TEST_P(SkeletonVsSeq, UncountedGeneratorsSearchTheSameTree) {
  // Generators without numChildren (hasNext only) through every skeleton's spawning, splitting and
  // stealing: the counts, nodes and deepest level of the counted generator, and the optimum of a
  // branch and bound whose generator scans lazily with level prunes.
  using E = Enumeration<CountByDepth<toy::RowOf>>;
  for (int d : {-1, 7}) {
    SearchParams<int> p = small(SearchParams<int>{});
    p.maxDepth = d;
    auto counted = partest::run<toy::Queens, E>(GetParam().skeleton, GetParam().workers, {9}, {}, p);
    for (int rep = 0; rep < 3; ++rep) {
      auto uncounted = partest::run<toy::QueensUncounted, E>(GetParam().skeleton, GetParam().workers, {9}, {}, p);
      ASSERT_EQ(uncounted.enumerator.get(), counted.enumerator.get()) << "depth " << d << " run " << rep;
      ASSERT_EQ(uncounted.stats.nodes, counted.stats.nodes);
      ASSERT_EQ(uncounted.stats.maxDepth, counted.stats.maxDepth);
    }
  }
  const toy::SubsetSum::Space s{{31, 27, 23, 19, 17, 13, 11, 7, 5, 3, 2}, 100};
  const toy::SubsetSum::Node root{0, 0, 158};
  for (int rep = 0; rep < 3; ++rep) {
    auto r = partest::run<toy::SubsetSumUncounted, Optimisation>(GetParam().skeleton, GetParam().workers, s, root,
                                                                 small(SearchParams<int>{}));
    ASSERT_TRUE(r.objective.has_value());
    ASSERT_EQ(*r.objective, 100);  // 31 + 27 + 23 + 19
  }
}

TEST_P(SkeletonVsSeq, QueensSolutionCounts) {
  // OEIS A000170.
  const std::uint64_t known[] = {1, 1, 0, 0, 2, 10, 4, 40, 92};
  for (int n = 4; n <= 8; ++n) {
    SearchParams<int> p = small(SearchParams<int>{});
    auto ref = seq::search<toy::Queens, Enumeration<toy::CountSolutions>>({n}, {}, p);
    ASSERT_EQ(ref.enumerator.get(), known[n]);
    for (int rep = 0; rep < kRepeats; ++rep) {
      auto r = partest::run<toy::Queens, Enumeration<toy::CountSolutions>>(GetParam().skeleton, GetParam().workers,
                                                                           {n}, {}, p);
      ASSERT_EQ(r.enumerator.get(), known[n]) << "n " << n << " run " << rep;
      ASSERT_EQ(r.stats.nodes, ref.stats.nodes);
    }
  }
}

TEST_P(SkeletonVsSeq, QueensDecision) {
  for (int n : {3, 6, 8, 10}) {
    SearchParams<int> p = small(SearchParams<int>{});
    p.expectedObjective = n;
    auto ref = seq::search<toy::Queens, Decision>({n}, {}, p);
    for (int rep = 0; rep < kRepeats; ++rep) {
      auto r = partest::run<toy::Queens, Decision>(GetParam().skeleton, GetParam().workers, {n}, {}, p);
      ASSERT_EQ(r.found(), ref.found()) << "n " << n << " run " << rep;
      ASSERT_TRUE(r.complete());
      if (r.found()) {
        ASSERT_EQ(r.stop, StopReason::Found);
        ASSERT_EQ(r.best->row, n);  // a full board: a real solution
      } else {
        ASSERT_EQ(r.stop, StopReason::None);
      }
    }
  }
}

TEST_P(SkeletonVsSeq, SubsetSumOptimum) {
  toy::SubsetSum::Space s{{31, 17, 23, 9, 44, 12, 5, 28, 19, 7, 41, 3, 37, 14}, 151};
  int best = 0;  // brute force, independent of the engine
  for (unsigned m = 0; m < (1u << s.items.size()); ++m) {
    int sum = 0;
    for (std::size_t i = 0; i < s.items.size(); ++i)
      if (m & (1u << i)) sum += s.items[i];
    if (sum <= s.capacity) best = std::max(best, sum);
  }
  const toy::SubsetSum::Node root{0, 0, std::accumulate(s.items.begin(), s.items.end(), 0)};
  SearchParams<int> p = small(SearchParams<int>{});
  for (int rep = 0; rep < kRepeats; ++rep) {
    auto r = partest::run<toy::SubsetSum, Optimisation>(GetParam().skeleton, GetParam().workers, s, root, p);
    ASSERT_TRUE(r.objective);
    ASSERT_EQ(*r.objective, best) << "run " << rep;
    ASSERT_EQ(r.best->sum, best);
  }
  // An initial bound at the optimum leaves nothing to find.
  p.initialBound = best;
  auto r = partest::run<toy::SubsetSum, Optimisation>(GetParam().skeleton, GetParam().workers, s, root, p);
  EXPECT_FALSE(r.found());
}

INSTANTIATE_TEST_SUITE_P(All, SkeletonVsSeq, testing::ValuesIn(allCases()), caseName);

// With one worker, ordered left-to-right keeps the sequential order: the first solution found
// is the one seq finds.
TEST(Ordered, OneWorkerFindsTheSequentialFirstSolution) {
  for (int n : {6, 8, 10}) {
    SearchParams<int> p;
    p.expectedObjective = n;
    auto ref = seq::search<toy::Queens, Decision>({n}, {}, p);
    const auto first = partest::run<toy::Queens, Decision>("ordered", 1, {n}, {}, p);
    for (int rep = 0; rep < 5; ++rep) {
      auto r = partest::run<toy::Queens, Decision>("ordered", 1, {n}, {}, p);
      ASSERT_TRUE(r.found());
      EXPECT_EQ(r.best->cols, ref.best->cols) << n;
      EXPECT_EQ(r.best->diag1, ref.best->diag1) << n;
      // Replicable: the same nodes before the stop, run after run (the nodes above the cutoff are
      // all expanded first, so the count differs from seq's).
      EXPECT_EQ(r.stats.nodes, first.stats.nodes) << n;
    }
  }
}

TEST(Parallel, StopRequestedBeforehandMarksPartial) {
  for (const auto& skel : partest::skeletons()) {
    StopFlag stop;
    stop.request(StopReason::Interrupted);
    SearchParams<long long> p;
    p.maxDepth = 16;
    auto r = partest::run<toy::BinaryTree, Enumeration<CountNodes>>(skel, 2, {}, {}, p, nullptr, &stop);
    EXPECT_FALSE(r.complete()) << skel;
    EXPECT_EQ(r.stop, StopReason::Interrupted);
  }
}

}  // namespace
