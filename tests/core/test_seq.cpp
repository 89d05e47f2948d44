#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "jackdaw/skeletons/seq.hpp"
#include "jackdaw/skeletons/table.hpp"
#include "toy_models.hpp"

using namespace jackdaw;

TEST(Seq, BinaryTreeCountsEveryNode) {
  for (int d = 0; d <= 12; ++d) {
    SearchParams<long long> p;
    p.maxDepth = d;
    auto r = seq::search<toy::BinaryTree, Enumeration<CountNodes>>({}, {}, p);
    EXPECT_EQ(r.enumerator.get(), (std::uint64_t{1} << (d + 1)) - 1) << "depth " << d;
    EXPECT_EQ(r.stats.nodes, r.enumerator.get());
    EXPECT_TRUE(r.complete());
  }
}

TEST(Seq, BulkLeafCountingMatchesBuildingLeaves) {
  // CountByDepth counts leaves in bulk; a counter without accumulateChildren builds them.
  struct Plain {
    std::uint64_t c = 0;
    void accumulate(const toy::BinaryTree::Node&) { ++c; }
    void combine(const Plain& o) { c += o.c; }
    std::uint64_t get() const { return c; }
  };
  SearchParams<long long> p;
  p.maxDepth = 10;
  auto bulk = seq::search<toy::BinaryTree, Enumeration<CountByDepth<toy::DepthOf>>>({}, {}, p);
  auto plain = seq::search<toy::BinaryTree, Enumeration<Plain>>({}, {}, p);
  ASSERT_EQ(bulk.enumerator.get().size(), 11u);
  std::uint64_t total = 0;
  for (int d = 0; d <= 10; ++d) {
    EXPECT_EQ(bulk.enumerator.get()[d], std::uint64_t{1} << d);
    total += bulk.enumerator.get()[d];
  }
  EXPECT_EQ(total, plain.enumerator.get());
  EXPECT_EQ(bulk.stats.nodes, plain.stats.nodes);
}

// Two searches of one tree, one counting some nodes in bulk: the same counts per depth (trailing
// zeros aside), nodes, backtracks (budget splits on them) and deepest level.
template <class A, class B>
void expectSameCounts(const A& bulk, const B& built, const std::string& what) {
  auto counts = [](std::vector<std::uint64_t> c) {
    while (!c.empty() && c.back() == 0) c.pop_back();
    return c;
  };
  EXPECT_EQ(counts(bulk.enumerator.get()), counts(built.enumerator.get())) << what;
  EXPECT_EQ(bulk.stats.nodes, built.stats.nodes) << what;
  EXPECT_EQ(bulk.stats.backtracks, built.stats.backtracks) << what;
  EXPECT_EQ(bulk.stats.maxDepth, built.stats.maxDepth) << what;
}

// Queens of size n searched by Variant and by the plain toy::Queens, per-row counts by E, at every
// depth limit from -1 (none) to n + 1: the same counts, nodes, backtracks and deepest level.
template <class Variant, class E>
void expectSameQueensAtEveryDepth(int n) {
  for (int d = -1; d <= n + 1; ++d) {
    SearchParams<int> p;
    p.maxDepth = d;
    auto plain = seq::search<toy::Queens, E>({n}, {}, p);
    auto variant = seq::search<Variant, E>({n}, {}, p);
    expectSameCounts(variant, plain, "n " + std::to_string(n) + " depth " + std::to_string(d));
  }
}

TEST(Seq, TwoLevelBulkCountingMatchesOneLevel) {
  // The same tree, once with the last level counted in bulk and once with the last two: the same
  // counts per row, nodes, backtracks (budget splits on them) and deepest level, at every limit.
  using E = Enumeration<CountByDepth<toy::RowOf>>;
  static_assert(NodeRules<toy::QueensTwoLevels, E>::countsTwoLevels);
  static_assert(!NodeRules<toy::Queens, E>::countsTwoLevels);
  for (int n : {6, 8}) {
    for (int d = 0; d <= n + 1; ++d) {
      SearchParams<int> p;
      p.maxDepth = d;
      auto one = seq::search<toy::Queens, E>({n}, {}, p);
      auto two = seq::search<toy::QueensTwoLevels, E>({n}, {}, p);
      expectSameCounts(two, one, "n " + std::to_string(n) + " depth " + std::to_string(d));
      EXPECT_EQ(two.stats.nodes, std::accumulate(two.enumerator.get().begin(), two.enumerator.get().end(),
                                                 std::uint64_t{0}));
    }
  }
}

TEST(Seq, DroppedLeavesCountedAsBuilt) {
  // Leaves dropped by the generator (QueensUnleaved) against leaves built (Queens): the same counts
  // per row, nodes, backtracks and deepest level, at every depth limit; and some were dropped.
  using E = Enumeration<CountByDepth<toy::RowOf>>;
  static_assert(DfsSteps<toy::QueensUnleaved, E>::dropsLeaves);
  static_assert(!DfsSteps<toy::QueensUnleaved, Optimisation>::dropsLeaves);  // leaves must be visited there
  const auto before = toy::QueensUnleaved::Generator::dropped.load();
  for (int n : {6, 8}) {
    expectSameQueensAtEveryDepth<toy::QueensUnleaved, E>(n);
    SearchParams<int> p;
    auto solutions = seq::search<toy::QueensUnleaved, Enumeration<CountByDepth<toy::RowOf>>>({n}, {}, p);
    EXPECT_EQ(solutions.enumerator.get().at(n), n == 6 ? 4u : 92u);  // OEIS A000170
  }
  EXPECT_GT(toy::QueensUnleaved::Generator::dropped.load(), before);
}

TEST(Seq, UncountedGeneratorSearchesTheSameTree) {
  // A generator with hasNext() and no numChildren (QueensUncounted) against the counted one: the
  // same counts per row, nodes, backtracks and deepest level at every depth limit (at the limit
  // its children are built to be counted).
  using E = Enumeration<CountByDepth<toy::RowOf>>;
  static_assert(!DfsSteps<toy::QueensUncounted, E>::counted && DfsSteps<toy::Queens, E>::counted);
  for (int n : {1, 6, 8}) expectSameQueensAtEveryDepth<toy::QueensUncounted, E>(n);
  // And a branch and bound whose generator scans lazily, with level prunes: the optimum 60 (31 + 27
  // + 2) and the decision both ways.
  const toy::SubsetSum::Space s{{31, 27, 19, 17, 13, 11, 7, 5, 3, 2}, 60};
  const toy::SubsetSum::Node root{0, 0, std::accumulate(s.items.begin(), s.items.end(), 0)};
  auto best = seq::search<toy::SubsetSumUncounted, Optimisation>(s, root, {});
  ASSERT_TRUE(best.objective.has_value());
  EXPECT_EQ(*best.objective, 60);
  EXPECT_GT(best.stats.prunes, 0u);
  for (int goal : {60, 61}) {
    SearchParams<int> p;
    p.expectedObjective = goal;
    const auto r = seq::search<toy::SubsetSumUncounted, Decision>(s, root, p);
    EXPECT_EQ(r.found(), goal == 60) << goal;
  }
}

TEST(Seq, QueensKnownCounts) {
  // OEIS A000170.
  const std::uint64_t known[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724};
  for (int n = 1; n <= 10; ++n) {
    SearchParams<int> p;
    const toy::Queens::Space space{n};
    toy::Queens::Node root;
    root.full = (n == 0);
    auto r = seq::search<toy::Queens, Enumeration<toy::CountSolutions>>(space, root, p);
    EXPECT_EQ(r.enumerator.get(), known[n]) << "n = " << n;
  }
}

TEST(Seq, QueensDecisionFindsAFullBoardOrProvesNone) {
  for (int n = 1; n <= 9; ++n) {
    SearchParams<int> p;
    p.expectedObjective = n;
    auto r = seq::search<toy::Queens, Decision>({n}, {}, p);
    const bool solvable = !(n == 2 || n == 3);
    EXPECT_EQ(r.found(), solvable) << n;
    EXPECT_TRUE(r.complete());
    if (solvable) {
      EXPECT_EQ(r.stop, StopReason::Found);
      EXPECT_EQ(r.best->row, n);
    }
  }
}

// A decision's goal is expectedObjective; an initialBound as well would hide the node that meets
// it (it must beat the bound to be recorded) while the search still stops as found. Refused.
TEST(Seq, DecisionRefusesAnInitialBound) {
  SearchParams<int> p;
  p.expectedObjective = 8;
  p.initialBound = 8;
  EXPECT_THROW((seq::search<toy::Queens, Decision>({8}, {}, p)), std::invalid_argument);
  StopFlag stop;
  skeletons::Settings s;
  s.parallel.runtime.threads = 2;
  EXPECT_THROW((skeletons::run<toy::Queens, Decision>("budget", toy::Queens::Space{8}, {}, p, stop, s)),
               std::invalid_argument);
}

TEST(Seq, SubsetSumOptimumMatchesBruteForce) {
  toy::SubsetSum::Space s{{31, 17, 23, 9, 44, 12, 5, 28, 19, 7}, 100};
  int best = 0;
  for (unsigned m = 0; m < (1u << s.items.size()); ++m) {
    int sum = 0;
    for (std::size_t i = 0; i < s.items.size(); ++i)
      if (m & (1u << i)) sum += s.items[i];
    if (sum <= s.capacity) best = std::max(best, sum);
  }
  toy::SubsetSum::Node root{0, 0, std::accumulate(s.items.begin(), s.items.end(), 0)};
  SearchParams<int> p;
  auto r = seq::search<toy::SubsetSum, Optimisation>(s, root, p);
  ASSERT_TRUE(r.objective);
  EXPECT_EQ(*r.objective, best);
  EXPECT_EQ(r.best->sum, best);
  EXPECT_GT(r.stats.prunes, 0u);  // the bound did cut
}

TEST(Seq, InitialBoundAboveOptimumFindsNothing) {
  toy::SubsetSum::Space s{{5, 7, 11}, 20};
  SearchParams<int> p;
  p.initialBound = 19;  // optimum is 18 (7 + 11)
  auto r = seq::search<toy::SubsetSum, Optimisation>(s, {0, 0, 23}, p);
  EXPECT_FALSE(r.found());
  p.initialBound = 17;
  r = seq::search<toy::SubsetSum, Optimisation>(s, {0, 0, 23}, p);
  ASSERT_TRUE(r.found());
  EXPECT_EQ(*r.objective, 18);
}

TEST(Seq, StopFlagInterruptsAndMarksPartial) {
  StopFlag stop;
  stop.request(StopReason::Interrupted);
  SearchParams<long long> p;
  p.maxDepth = 20;
  auto r = seq::search<toy::BinaryTree, Enumeration<CountNodes>>({}, {}, p, stop);
  EXPECT_FALSE(r.complete());
  EXPECT_EQ(r.stop, StopReason::Interrupted);
  EXPECT_LT(r.enumerator.get(), (std::uint64_t{1} << 21) - 1);
}
