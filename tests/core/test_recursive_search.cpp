// RecursiveSearch (seq's engine) searches what DepthFirst without hooks searches and reports the
// same: nodes, prunes, backtracks, depth reached, counts, incumbent, and on a stop the nodes
// visited so far and whether work was cut short; a chain deeper than its recursion continues on
// the explicit stack.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

#include "jackdaw/core/depth_first.hpp"
#include "jackdaw/core/recursive_search.hpp"
#include "toy_models.hpp"

using namespace jackdaw;

namespace {

// A path of `length` edges: the deepest tree a search can meet.
struct Chain {
  struct Space {
    int length;
  };
  struct Node {
    int depth = 0;
  };
  struct Generator {
    Generator(const Space& s, const Node& p) : parent(p), numChildren(p.depth < s.length ? 1 : 0) {}
    const Node& parent;
    int numChildren;
    Node next() { return {parent.depth + 1}; }
  };
};

// The chain with a 256 KiB generator: recursion would need 256 KiB of stack a level.
struct HeavyChain {
  using Space = Chain::Space;
  using Node = Chain::Node;
  struct Generator : Chain::Generator {
    Generator(const Space& s, const Node& p) : Chain::Generator(s, p) {}
    std::array<char, 256 * 1024> scratch;  // never touched
  };
};

// Subset sum whose children come in order of falling bounds, so a failed bound ends the level.
struct SubsetSumLevel : toy::SubsetSum {
  static constexpr bool pruneLevel = true;
};

// Counts nodes and asks the search to stop at the n-th.
struct StopAt {
  inline static StopFlag* flag = nullptr;
  inline static std::uint64_t at = 0;
  std::uint64_t seen = 0;
  template <class N>
  void accumulate(const N&) {
    if (++seen == at) flag->request(StopReason::Interrupted);
  }
  void combine(const StopAt& o) { seen += o.seen; }
  std::uint64_t get() const { return seen; }
};

struct Outcome {
  SearchStats stats;
  bool truncated = false;
  std::optional<long long> objective;
  std::uint64_t count = 0;
};

template <class M, class K, bool Recursive, class E = typename SearchTypes<M, K>::Enum>
Outcome runEngine(const typename M::Space& space, typename M::Node root, const typename SearchTypes<M, K>::Params& params,
                  std::uint64_t stopAt = 0) {
  using T = SearchTypes<M, K>;
  StopFlag stop;
  StopAt::flag = &stop;
  StopAt::at = stopAt;
  typename T::IncumbentT incumbent(params.initialBound);
  NodeRules<M, K> rules(space, params, &incumbent, stop);
  DfsStack<M, K> frames;
  if constexpr (Recursive) {
    RecursiveSearch<M, K> engine(rules, frames);
    engine.run(std::move(root), 0);
  } else {
    NoHooks hooks;
    DepthFirst<M, K> engine(rules, hooks, frames);
    engine.run(std::move(root), 0);
  }
  Outcome o;
  o.stats = rules.stats;
  o.truncated = rules.truncated;
  if constexpr (isOptimisation<K>) {
    if (auto v = incumbent.nodeObjective()) o.objective = static_cast<long long>(*v);
  } else if constexpr (isEnumeration<K>) {
    if constexpr (requires { rules.acc.get() + 0; }) o.count = rules.acc.get();
  }
  return o;
}

template <class M, class K>
void expectSame(const typename M::Space& space, typename M::Node root, const typename SearchTypes<M, K>::Params& params,
                const std::string& what, std::uint64_t stopAt = 0) {
  const Outcome r = runEngine<M, K, true>(space, root, params, stopAt);
  const Outcome d = runEngine<M, K, false>(space, root, params, stopAt);
  EXPECT_EQ(r.stats.nodes, d.stats.nodes) << what;
  EXPECT_EQ(r.stats.prunes, d.stats.prunes) << what;
  EXPECT_EQ(r.stats.backtracks, d.stats.backtracks) << what;
  EXPECT_EQ(r.stats.maxDepth, d.stats.maxDepth) << what;
  EXPECT_EQ(r.truncated, d.truncated) << what;
  EXPECT_EQ(r.objective, d.objective) << what;
  EXPECT_EQ(r.count, d.count) << what;
}

}  // namespace

TEST(RecursiveSearch, SameAsDepthFirstOnEnumerations) {
  for (int d : {0, 1, 5, 12}) {
    SearchParams<long long> p;
    p.maxDepth = d;
    expectSame<toy::BinaryTree, Enumeration<CountNodes>>({}, {}, p, "binary tree, depth " + std::to_string(d));
    expectSame<toy::BinaryTree, Enumeration<CountByDepth<toy::DepthOf>>>({}, {}, p,
                                                                         "binary tree in bulk, depth " + std::to_string(d));
  }
  for (int n : {1, 6, 8}) {
    for (int d : {-1, 2, n - 1, n}) {
      SearchParams<int> p;
      p.maxDepth = d;
      const std::string what = "queens " + std::to_string(n) + ", depth " + std::to_string(d);
      expectSame<toy::Queens, Enumeration<toy::CountSolutions>>({n}, {}, p, what);
      expectSame<toy::Queens, Enumeration<CountByDepth<toy::RowOf>>>({n}, {}, p, what + " in bulk");
      expectSame<toy::QueensTwoLevels, Enumeration<CountByDepth<toy::RowOf>>>({n}, {}, p, what + " two levels in bulk");
      expectSame<toy::QueensUnleaved, Enumeration<CountByDepth<toy::RowOf>>>({n}, {}, p, what + " leaves dropped");
      expectSame<toy::QueensUncounted, Enumeration<CountByDepth<toy::RowOf>>>({n}, {}, p, what + " uncounted");
    }
  }
}

TEST(RecursiveSearch, SameAsDepthFirstOnBranchAndBoundAndDecisions) {
  const toy::SubsetSum::Space s{{31, 27, 19, 17, 13, 11, 7, 5, 3, 2}, 60};
  toy::SubsetSum::Node root{0, 0, std::accumulate(s.items.begin(), s.items.end(), 0)};
  expectSame<toy::SubsetSum, Optimisation>(s, root, {}, "subset sum");
  expectSame<SubsetSumLevel, Optimisation>(s, root, {}, "subset sum with level prunes");
  SearchParams<int> bounded;
  bounded.initialBound = 58;
  expectSame<SubsetSumLevel, Optimisation>(s, root, bounded, "subset sum from bound 58");
  expectSame<toy::SubsetSumUncounted, Optimisation>(s, root, {}, "subset sum uncounted");
  expectSame<toy::SubsetSumUncounted, Optimisation>(s, root, bounded, "subset sum uncounted from bound 58");
  for (int goal : {59, 60, 61}) {  // 60 is reachable (31 + 27 + 2), 61 is not
    SearchParams<int> p;
    p.expectedObjective = goal;
    expectSame<toy::SubsetSum, Decision>(s, root, p, "subset sum, decision " + std::to_string(goal));
  }
}

TEST(RecursiveSearch, StopsWhereDepthFirstStops) {
  // Stopped at the n-th node: the same nodes visited, and the same verdict on lost work.
  SearchParams<int> p;
  for (std::uint64_t at : {1, 2, 3, 40, 91, 92, 2056, 2057}) {
    expectSame<toy::Queens, Enumeration<StopAt>>({8}, {}, p, "queens 8 stopped at " + std::to_string(at), at);
    expectSame<toy::QueensUncounted, Enumeration<StopAt>>({8}, {}, p,
                                                          "uncounted queens 8 stopped at " + std::to_string(at), at);
  }
}

TEST(RecursiveSearch, DeepChainContinuesOnTheExplicitStack) {
  // Far deeper than the recursion goes (about 256 KiB of frames): every node, no stack overflow.
  SearchParams<long long> p;
  const int length = 200000;
  const Outcome r = runEngine<Chain, Enumeration<CountNodes>, true>({length}, {}, p);
  EXPECT_EQ(r.stats.nodes, std::uint64_t(length) + 1);
  EXPECT_EQ(r.stats.maxDepth, std::uint64_t(length));
  expectSame<Chain, Enumeration<CountNodes>>({length}, {}, p, "chain");
  for (std::uint64_t at : {5000, 150000, 200001})  // stopped above and below where recursion ends
    expectSame<Chain, Enumeration<StopAt>>({length}, {}, p, "chain stopped at " + std::to_string(at), at);
}

TEST(RecursiveSearch, LargeGeneratorsRecurseOnlyAsFarAsTheStackAllows) {
  // 400 levels of 256 KiB generators would be 100 MiB of call stack: the recursion stops after
  // about 256 KiB and the rest runs on DepthFirst's heap-allocated frames.
  SearchParams<long long> p;
  const Outcome r = runEngine<HeavyChain, Enumeration<CountNodes>, true>({400}, {}, p);
  EXPECT_EQ(r.stats.nodes, 401u);
  expectSame<HeavyChain, Enumeration<CountNodes>>({400}, {}, p, "heavy chain");
}
