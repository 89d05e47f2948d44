// What a checkpoint rests on, in the engine alone: a search interrupted with keepUnexplored() and
// continued from takeUnexplored() (again and again, on another skeleton and worker count each
// time) gives exactly the uninterrupted answer: the same count, the same optimum. No node is lost
// and none is visited twice.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "../core/toy_models.hpp"
#include "jackdaw/core/enumerators.hpp"
#include "jackdaw/skeletons/table.hpp"
#include "skeleton_runner.hpp"

using namespace jackdaw;

namespace {

// A toy model whose generator requests an interruption at its stopAt-th construction (counted
// over every worker): an interruption at a reproducible point of the search.
template <class Base>
struct Interruptible {
  struct Space {
    typename Base::Space base;
    int stopAt = 0;
    StopFlag* stop = nullptr;
    mutable std::atomic<int> expansions{0};
  };
  using Node = typename Base::Node;
  struct Generator : Base::Generator {
    Generator(const Space& s, const Node& p) : Base::Generator(s.base, p) {
      if (s.expansions.fetch_add(1) + 1 == s.stopAt) s.stop->request(StopReason::Interrupted);
    }
  };
  static auto bound(const Space& s, const Node& n)
    requires requires { Base::bound(s.base, n); }
  {
    return Base::bound(s.base, n);
  }
};

// A launch that runs one leg: the skeleton's seed, or the tasks kept by the leg before.
template <class TaskT>
struct Leg {
  bool resume = false;
  std::vector<TaskT> tasks;  // in: what to continue; out: what this leg left unexplored
  template <class S, class Seed>
  typename S::Result operator()(S& s, Seed&& seed) {
    s.keepUnexplored();
    auto r = s.run([&] {
      if (resume) s.pushAll(std::move(tasks));
      else seed();
    });
    tasks = s.takeUnexplored();
    return r;
  }
};

// Runs legs until one ends without an interruption; each leg moves to the next skeleton and
// worker count. Returns the folded result of all legs and how many legs there were.
template <class Base, class K>
std::pair<SearchResult<Interruptible<Base>, K>, int> chain(const typename Base::Space& base, typename Base::Node root,
                                                           SearchParams<typename SearchTypes<Interruptible<Base>, K>::Obj> params,
                                                           int stopAt, std::size_t first) {
  using M = Interruptible<Base>;
  using Result = SearchResult<M, K>;
  Leg<detail::Task<typename Base::Node>> leg;
  Result total;
  const auto& names = partest::skeletons();
  for (int legs = 1;; ++legs) {
    StopFlag stop;
    typename M::Space space;
    space.base = base;
    space.stopAt = stopAt;
    space.stop = &stop;
    const std::string skel = names[(first + static_cast<std::size_t>(legs)) % names.size()];
    const int workers = 1 + legs % 2;
    const partest::Variant v = partest::variant(skel, workers, {2, 5});
    Result r = skeletons::run<M, K>(v.name, space, root, params, stop, v.settings, leg);
    total.enumerator.combine(r.enumerator);
    total.stats += r.stats;
    if (r.objective && (!total.objective || *r.objective > *total.objective)) {
      total.objective = r.objective;
      total.best = r.best;
      params.initialBound = r.objective;  // the next leg starts from the incumbent, as a resume does
    }
    if (stop.reason() != StopReason::Interrupted) {
      // A whole search leaves nothing; a found decision may leave work nobody needs.
      if (stop.reason() == StopReason::None) {
        EXPECT_TRUE(leg.tasks.empty()) << "a complete leg kept work";
      }
      total.stop = r.stop;
      return {total, legs};
    }
    leg.resume = true;
    if (legs > 3000) {
      ADD_FAILURE() << "no end after 3000 legs";
      return {total, legs};
    }
  }
}

}  // namespace

TEST(KeepUnexplored, CountsMatchAfterAnyNumberOfInterruptions) {
  const toy::BinaryTree::Space bt{};
  SearchParams<long long> p;
  p.maxDepth = 10;  // 2^11 - 1 nodes
  for (int stopAt : {2, 9, 60, 400}) {
    for (std::size_t first = 0; first < partest::skeletons().size(); ++first) {
      auto [r, legs] = chain<toy::BinaryTree, Enumeration<CountNodes>>(bt, {}, p, stopAt, first);
      EXPECT_EQ(r.enumerator.get(), 2047u) << "stop at expansion " << stopAt << ", first skeleton " << first;
      EXPECT_EQ(r.stats.nodes, 2047u);
      EXPECT_EQ(r.stop, StopReason::None);
      if (stopAt < 100) {
        EXPECT_GT(legs, 1) << "the search was never interrupted";
      }
    }
  }
}

TEST(KeepUnexplored, QueensSolutionsMatch) {
  const toy::Queens::Space q{8};
  for (int stopAt : {3, 50, 700}) {
    for (std::size_t first = 0; first < partest::skeletons().size(); first += 2) {
      auto [r, legs] = chain<toy::Queens, Enumeration<toy::CountSolutions>>(q, {}, {}, stopAt, first);
      EXPECT_EQ(r.enumerator.get(), 92u) << "stop at expansion " << stopAt;
      EXPECT_GT(legs, 1);
    }
  }
}

TEST(KeepUnexplored, OptimumMatches) {
  const toy::SubsetSum::Space ss{{31, 27, 23, 19, 17, 13, 11, 7, 5, 3, 2}, 100};
  int remaining = 0;
  for (int x : ss.items) remaining += x;
  const toy::SubsetSum::Node root{0, 0, remaining};
  const auto seq = seq::search<toy::SubsetSum, Optimisation>(ss, root, {});
  ASSERT_EQ(*seq.objective, 100);
  for (int stopAt : {2, 7, 40}) {
    for (std::size_t first = 0; first < partest::skeletons().size(); ++first) {
      auto [r, legs] = chain<toy::SubsetSum, Optimisation>(ss, root, {}, stopAt, first);
      ASSERT_TRUE(r.objective.has_value());
      EXPECT_EQ(*r.objective, *seq.objective) << "stop at expansion " << stopAt;
      EXPECT_EQ(r.best->sum, *seq.objective);
    }
  }
}

TEST(KeepUnexplored, UncountedGeneratorsMatch) {
  // Generators without numChildren (hasNext only): the frames' unexplored children are kept by
  // asking hasNext(), with the same answers.
  const toy::Queens::Space q{8};
  const toy::SubsetSum::Space ss{{31, 27, 23, 19, 17, 13, 11, 7, 5, 3, 2}, 100};
  const toy::SubsetSum::Node root{0, 0, 158};
  for (int stopAt : {3, 50, 700}) {
    for (std::size_t first = 0; first < partest::skeletons().size(); first += 3) {
      auto [r, legs] = chain<toy::QueensUncounted, Enumeration<toy::CountSolutions>>(q, {}, {}, stopAt, first);
      EXPECT_EQ(r.enumerator.get(), 92u) << "stop at expansion " << stopAt;
      EXPECT_GT(legs, 1);
      auto [o, olegs] = chain<toy::SubsetSumUncounted, Optimisation>(ss, root, {}, stopAt / 10 + 2, first);
      ASSERT_TRUE(o.objective.has_value());
      EXPECT_EQ(*o.objective, 100) << "stop at expansion " << stopAt / 10 + 2;
    }
  }
}

TEST(KeepUnexplored, DecisionVerdictMatches) {
  const toy::SubsetSum::Space ss{{31, 27, 23, 19, 17, 13, 11, 7, 5, 3, 2}, 100};
  int remaining = 0;
  for (int x : ss.items) remaining += x;
  const toy::SubsetSum::Node root{0, 0, remaining};
  for (int target : {100, 101}) {  // reachable exactly, and beyond the capacity
    SearchParams<int> p;
    p.expectedObjective = target;
    for (int stopAt : {2, 7}) {
      auto [r, legs] = chain<toy::SubsetSum, Decision>(ss, root, p, stopAt, static_cast<std::size_t>(stopAt));
      EXPECT_EQ(r.found(), target == 100) << "target " << target << ", stop at expansion " << stopAt;
      EXPECT_EQ(r.stop, target == 100 ? StopReason::Found : StopReason::None);
    }
  }
}
