// The incumbent channel (core/incumbent_view.hpp): what a generator that takes an IncumbentView is
// told, in each kind of search, and that two searches in one process never see each other's.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <thread>

#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/seq.hpp"

using namespace jackdaw;

namespace {

// A binary tree of depth `depth`; a node's value is how many right branches lead to it, so the
// optimum is `depth`. Each child carries what its parent's generator was told. The generator has
// the three-argument constructor only: every search below builds it that way (issue 53).
struct Tree {
  struct Space { int depth = 0; };
  struct Node {
    int depth = 0, value = 0;
    bool told = false;   // the parent's generator had a best
    int best = -1;       // that best
    int goal = -1;       // the goal it was told (-1: none)
    int getObj() const { return value; }
  };
  struct Generator {
    std::size_t numChildren = 0;
    Generator(const Space& s, const Node& p, IncumbentView<int> v) : parent(p) {
      numChildren = p.depth < s.depth ? 2 : 0;
      told = v.hasBest();
      best = v.bestOr(-1);
      goal = v.goal() ? *v.goal() : -1;
    }
    Node next() { return {parent.depth + 1, parent.value + (taken++ == 1 ? 1 : 0), told, best, goal}; }
    const Node& parent;
    bool told = false;
    int best = -1, goal = -1, taken = 0;
  };
  static int bound(const Space& s, const Node& n) { return n.value + (s.depth - n.depth); }
};

// Checks every non-root node against what its kind of search must have told its parent.
struct Audit {
  int initial = -1;      // optimisation: params.initialBound (-1: none)
  int goal = -1;         // decision: params.expectedObjective (-1: none)
  bool optimising = false;
  std::uint64_t checked = 0, wrong = 0;
  void accumulate(const Tree::Node& n) {
    if (n.depth == 0) return;
    ++checked;
    bool ok = n.goal == goal;
    if (optimising) ok = ok && (initial < 0 || (n.told && n.best >= initial));
    else ok = ok && !n.told;
    wrong += !ok;
  }
  void combine(const Audit& o) { checked += o.checked, wrong += o.wrong; }
  std::uint64_t get() const { return wrong; }
};

}  // namespace

TEST(IncumbentView, EnumerationTellsNothing) {
  auto r = seq::search<Tree, Enumeration<Audit>>({6}, {}, {});
  EXPECT_EQ(r.enumerator.checked, 126u);  // 2^7 - 2 nodes below the root
  EXPECT_EQ(r.enumerator.get(), 0u);
}

TEST(IncumbentView, OptimisationStartsFromTheInitialBoundAndOnlyRises) {
  // Seq: the root's generator is told the initial bound (3), and every later one at least that;
  // the optimum (8) is still found, since only the bound prunes.
  SearchParams<int> p;
  p.initialBound = 3;
  StopFlag stop;
  auto r = seq::search<Tree, Optimisation>({8}, {}, p, stop);
  ASSERT_TRUE(r.objective);
  EXPECT_EQ(*r.objective, 8);
  // The optimum's parent was told the best before it: at least 3, below 8.
  EXPECT_TRUE(r.best->told);
  EXPECT_GE(r.best->best, 3);
  EXPECT_LT(r.best->best, 8);
  EXPECT_EQ(r.best->goal, -1);
}

TEST(IncumbentView, DecisionTellsTheGoal) {
  SearchParams<int> p;
  p.expectedObjective = 5;
  auto r = seq::search<Tree, Decision>({8}, {}, p);
  ASSERT_TRUE(r.found());
  EXPECT_EQ(r.best->goal, 5);
  EXPECT_FALSE(r.best->told);
}

TEST(IncumbentView, SearchesInOneProcessAreIndependent) {
  // One after another on one Space: the second is told its own initial bound, not the first's
  // optimum. Then two at once on two threads (budget, 2 workers each): each still sees only its
  // own, and both find the optimum.
  const Tree::Space space{10};
  auto first = seq::search<Tree, Optimisation>(space, {}, {});
  ASSERT_EQ(*first.objective, 10);
  SearchParams<int> low;
  low.initialBound = 1;
  auto second = seq::search<Tree, Optimisation>(space, {}, low);
  ASSERT_TRUE(second.best);
  EXPECT_EQ(*second.objective, 10);
  EXPECT_LT(second.best->best, 10);  // its parent knew less than the first search's optimum

  SearchParams<int> goal;
  goal.expectedObjective = 7;
  SearchResult<Tree, Optimisation> opt;
  SearchResult<Tree, Decision> dec;
  budget::Options o;
  o.runtime.threads = 2;
  o.budget = 4;
  std::thread a([&] {
    StopFlag stop;
    opt = budget::search<Tree, Optimisation>(space, {}, low, stop, o);
  });
  std::thread b([&] {
    StopFlag stop;
    dec = budget::search<Tree, Decision>(space, {}, goal, stop, o);
  });
  a.join();
  b.join();
  ASSERT_TRUE(opt.objective);
  EXPECT_EQ(*opt.objective, 10);
  EXPECT_EQ(opt.best->goal, -1);  // never the decision's goal
  EXPECT_GE(opt.best->best, 1);
  ASSERT_TRUE(dec.found());
  EXPECT_GE(*dec.objective, 7);
  EXPECT_EQ(dec.best->goal, 7);
  EXPECT_FALSE(dec.best->told);   // never the optimisation's incumbent
}
