// The MaxClique model under the sequential skeleton: known omegas of DIMACS graphs (sources in
// instances/dimacs/ANSWERS.tsv), cliques checked against the original graph, decision mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <cereal/archives/binary.hpp>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/maxclique/dimacs.hpp"
#include "jackdaw/maxclique/dispatch.hpp"
#include "jackdaw/maxclique/heuristic.hpp"
#include "jackdaw/maxclique/model.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "jackdaw/skeletons/seq.hpp"

using namespace jackdaw;
using namespace jackdaw::maxclique;

namespace {

struct Outcome {
  bool found = false;
  int objective = -1;
  std::vector<int> clique;  // 0-based, file numbering
  std::uint64_t nodes = 0;
};

// everyBranch: the MaxSAT test on every branching vertex (Space::testEveryBranch).
template <class Kind>
Outcome solve(const DimacsGraph& g, std::optional<int> k = std::nullopt, std::optional<int> initialBound = std::nullopt,
              bool everyBranch = false) {
  return withWordsFor(g.n, [&](auto words) {
    using M = MaxClique<decltype(words)::value>;
    auto space = M::makeSpace(g);
    space.testEveryBranch = everyBranch;
    SearchParams<int> p;
    p.expectedObjective = k;
    p.initialBound = initialBound;
    const auto r = seq::search<M, Kind>(space, M::root(space), p);
    Outcome o;
    o.found = r.best.has_value();
    o.nodes = r.stats.nodes;
    if (r.best) {
      o.objective = *r.objective;
      o.clique = M::originalVertices(space, *r.best);
    }
    return o;
  });
}

// Independent of the model: an adjacency matrix straight from the edge list.
bool formsClique(const DimacsGraph& g, const std::vector<int>& vs) {
  std::vector<std::vector<char>> a(g.n, std::vector<char>(g.n, 0));
  for (auto [u, v] : g.edges) a[u][v] = a[v][u] = 1;
  for (std::size_t i = 0; i < vs.size(); ++i)
    for (std::size_t j = 0; j < vs.size(); ++j)
      if (i != j && !a[vs[i]][vs[j]]) return false;
  return true;
}

DimacsGraph instance(const std::string& name) {
  return readDimacs(std::string(JACKDAW_INSTANCES) + "/dimacs/" + name + ".clq");
}

DimacsGraph fromEdges(int n, std::vector<std::pair<int, int>> edges) {
  DimacsGraph g;
  g.n = n;
  g.edges = std::move(edges);
  std::sort(g.edges.begin(), g.edges.end());
  return g;
}

struct Known {
  const char* name;
  int omega;
};
// Readable, stable test names in CTest (the default prints raw bytes, including a pointer).
void PrintTo(const Known& k, std::ostream* os) { *os << k.name << " omega " << k.omega; }

class KnownOmega : public ::testing::TestWithParam<Known> {};

}  // namespace

TEST_P(KnownOmega, OptimisationFindsOmegaAndAClique) {
  const auto g = instance(GetParam().name);
  const auto o = solve<Optimisation>(g);
  ASSERT_TRUE(o.found);
  EXPECT_EQ(o.objective, GetParam().omega);
  EXPECT_EQ(static_cast<int>(o.clique.size()), GetParam().omega);
  EXPECT_TRUE(formsClique(g, o.clique));
}

TEST_P(KnownOmega, DecisionFindsOmegaButNotOmegaPlusOne) {
  const auto g = instance(GetParam().name);
  const int omega = GetParam().omega;
  const auto yes = solve<Decision>(g, omega);
  ASSERT_TRUE(yes.found);
  EXPECT_GE(static_cast<int>(yes.clique.size()), omega);
  EXPECT_TRUE(formsClique(g, yes.clique));
  const auto no = solve<Decision>(g, omega + 1);
  EXPECT_FALSE(no.found);
}

TEST_P(KnownOmega, DecisionProofIsTheTreeOfTheBoundBelowItsGoal) {
  // "No clique of omega + 1" cuts exactly what a bound of omega cuts, so with the goal told to the
  // model (IncumbentView::goal) the proof must search the very tree an optimisation given omega searches.
  const auto g = instance(GetParam().name);
  const int omega = GetParam().omega;
  const auto proof = solve<Decision>(g, omega + 1);
  const auto bounded = solve<Optimisation>(g, std::nullopt, omega);
  EXPECT_FALSE(proof.found);
  EXPECT_FALSE(bounded.found);  // nothing beats the optimum
  EXPECT_EQ(proof.nodes, bounded.nodes);
}

TEST_P(KnownOmega, TestingEveryBranchFindsOmegaAndProvesNothingAbove) {
  // The MaxSAT test on every branching vertex (what the app turns on near the root's bound) moves
  // more vertices below kmin: each move must keep the bound valid, with or without a good incumbent.
  const auto g = instance(GetParam().name);
  const int omega = GetParam().omega;
  const auto o = solve<Optimisation>(g, std::nullopt, std::nullopt, true);
  ASSERT_TRUE(o.found);
  EXPECT_EQ(o.objective, omega);
  EXPECT_TRUE(formsClique(g, o.clique));
  EXPECT_FALSE(solve<Decision>(g, omega + 1, std::nullopt, true).found);
  EXPECT_FALSE(solve<Optimisation>(g, std::nullopt, omega, true).found);  // nothing beats the optimum
}

TEST_P(KnownOmega, InitialCliqueIsADeterministicCliqueNoLargerThanOmega) {
  // The app's initial bound: a real clique (of the file's vertices), at most omega, the same on
  // every call (every rank computes it alone), and an optimisation started from it still answers omega.
  const auto g = instance(GetParam().name);
  withWordsFor(g.n, [&](auto words) {
    constexpr std::size_t W = decltype(words)::value;
    const auto space = MaxClique<W>::makeSpace(g);
    const auto a = initialClique<W>(space), b = initialClique<W>(space);
    EXPECT_EQ(a, b);
    std::vector<int> file;
    for (int v : a) file.push_back(space.original[static_cast<std::size_t>(v)]);
    EXPECT_TRUE(formsClique(g, file));
    EXPECT_FALSE(a.empty());
    EXPECT_LE(static_cast<int>(a.size()), GetParam().omega);
    const auto o = solve<Optimisation>(g, std::nullopt, static_cast<int>(a.size()));
    EXPECT_EQ(o.found ? o.objective : static_cast<int>(a.size()), GetParam().omega);
    return 0;
  });
}

TEST_P(KnownOmega, StartingCliqueIsADeterministicCliqueNoSmallerThanTheFirstRun) {
  // The app's initial clique (startingClique): the tabu run, and a second one where the
  // colour-sort root would prove a slightly larger clique. Never smaller than the first run's.
  const auto g = instance(GetParam().name);
  withWordsFor(g.n, [&](auto words) {
    constexpr std::size_t W = decltype(words)::value;
    const auto space = MaxClique<W>::makeSpace(g);
    const auto sorted = MaxClique<W>::colourSorted(space);
    const auto a = startingClique<W>(space, sorted), b = startingClique<W>(space, sorted);
    EXPECT_EQ(a, b);
    std::vector<int> file;
    for (int v : a) file.push_back(space.original[static_cast<std::size_t>(v)]);
    EXPECT_TRUE(formsClique(g, file));
    EXPECT_GE(a.size(), initialClique<W>(space).size());
    EXPECT_LE(static_cast<int>(a.size()), GetParam().omega);
    return 0;
  });
}

TEST_P(KnownOmega, ColourSortedOrderIsTheSameGraphAndItsRootProvesNothingFalse) {
  // The app's alternative order: the same edges under a renumbering, and its root never claims
  // that nothing beats omega - 1 (a clique of omega exists).
  const auto g = instance(GetParam().name);
  withWordsFor(g.n, [&](auto words) {
    using M = MaxClique<decltype(words)::value>;
    const auto space = M::makeSpace(g);
    const auto sorted = M::colourSorted(space);
    std::size_t edges = 0;
    for (int i = 0; i < sorted.n; ++i)
      sorted.adj[i].forEach([&](std::size_t j) {
        ++edges;
        const auto e = std::minmax(sorted.original[i], sorted.original[j]);
        EXPECT_TRUE(std::binary_search(g.edges.begin(), g.edges.end(), std::pair<int, int>(e)));
      });
    EXPECT_EQ(edges, 2 * g.edges.size());
    EXPECT_FALSE(M::rootProves(sorted, GetParam().omega - 1));
    EXPECT_FALSE(M::rootProves(space, GetParam().omega - 1));
    // The search in that order, told omega - 1, still finds omega (the app runs it only where
    // its root proves the optimum, so only the order is tested here, not its speed).
    if (g.n <= 200) {
      SearchParams<int> p;
      p.initialBound = GetParam().omega - 1;
      const auto r = seq::search<M, Optimisation>(sorted, M::root(sorted), p);
      EXPECT_EQ(*r.objective, GetParam().omega);
    }
    return 0;
  });
}

INSTANTIATE_TEST_SUITE_P(Dimacs, KnownOmega,
                         ::testing::Values(Known{"brock200_1", 21}, Known{"brock200_2", 12}, Known{"brock200_4", 17},
                                           Known{"hamming8-4", 16}, Known{"keller4", 11},
                                           Known{"san200_0.7_1", 30}, Known{"sanr200_0.7", 18},
                                           Known{"C125.9", 34}, Known{"MANN_a27", 126}, Known{"MANN_a9", 16},
                                           Known{"hamming6-4", 4}, Known{"johnson8-4-4", 14},
                                           Known{"c-fat200-1", 12}, Known{"c-fat500-10", 126}),
                         [](const auto& info) {
                           std::string s = info.param.name;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

TEST(MaxCliqueModel, SmallGraphs) {
  // 5-cycle: omega 2. K5: omega 5. No edges: omega 1. No vertices: omega 0 (the empty clique).
  EXPECT_EQ(solve<Optimisation>(fromEdges(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}})).objective, 2);
  std::vector<std::pair<int, int>> k5;
  for (int u = 0; u < 5; ++u)
    for (int v = u + 1; v < 5; ++v) k5.emplace_back(u, v);
  EXPECT_EQ(solve<Optimisation>(fromEdges(5, k5)).objective, 5);
  EXPECT_EQ(solve<Optimisation>(fromEdges(7, {})).objective, 1);
  EXPECT_EQ(solve<Optimisation>(fromEdges(0, {})).objective, 0);
  EXPECT_FALSE(solve<Decision>(fromEdges(3, {}), 4).found);  // K above n: the root is cut
}

TEST(MaxCliqueModel, SearchDoesNotDependOnBitsetWidth) {
  // The same graph in 4 and in 8 words must be the same search, node for node.
  const auto g = instance("brock200_4");
  auto run = [&](auto words) {
    using M = MaxClique<decltype(words)::value>;
    const auto space = M::makeSpace(g);
    return seq::search<M, Optimisation>(space, M::root(space), {});
  };
  const auto a = run(std::integral_constant<std::size_t, 4>{});
  const auto b = run(std::integral_constant<std::size_t, 8>{});
  EXPECT_EQ(*a.objective, 17);
  EXPECT_EQ(*b.objective, 17);
  EXPECT_EQ(a.stats.nodes, b.stats.nodes);
  EXPECT_EQ(a.stats.prunes, b.stats.prunes);
}

TEST(MaxCliqueModel, ChildBoundsNeverIncreaseAlongSiblings) {
  // pruneLevel = true relies on it.
  using M = MaxClique<4>;
  const auto g = instance("brock200_2");
  const auto space = M::makeSpace(g);
  const auto root = M::root(space);
  M::Generator gen(space, root);
  ASSERT_EQ(gen.numChildren, 200u);
  int last = 1 << 30;
  for (std::size_t i = 0; i < gen.numChildren; ++i) {
    const auto c = gen.next();
    EXPECT_LE(c.bound, last);
    EXPECT_EQ(c.size, 1);
    EXPECT_EQ(c.clique.count(), 1u);
    last = c.bound;
  }
}

TEST(MaxCliqueModel, VerticesAreInDegeneracyOrder) {
  // Each vertex has the smallest degree in the subgraph of itself and the vertices before it.
  using M = MaxClique<4>;
  const auto g = instance("brock200_1");
  const auto space = M::makeSpace(g);
  M::Set prefix;
  prefix.setFirst(static_cast<std::size_t>(space.n));
  for (int i = space.n - 1; i >= 0; --i) {
    std::size_t least = space.adj[i].count();
    for (int j = 0; j <= i; ++j) least = std::min(least, (space.adj[j] & prefix).count());
    EXPECT_EQ((space.adj[i] & prefix).count(), least) << i;
    prefix.reset(static_cast<std::size_t>(i));
  }
}

TEST(MaxCliqueModel, ChildBoundsNeverIncreaseAfterReColouring) {
  // Below the root, with a known clique, some vertices are re-coloured below kmin (the bound of
  // the children cut at once). Siblings must still come in non-increasing bound order.
  using M = MaxClique<4>;
  const auto g = instance("brock200_1");
  const auto space = M::makeSpace(g);
  const auto root = M::root(space);
  M::Generator top(space, root);
  std::atomic<int> fifteen{15};  // as if a clique of 15 were known
  std::atomic<bool> known{true};
  std::size_t checked = 0;
  for (std::size_t i = 0; i < top.numChildren; ++i) {
    const auto child = top.next();
    M::Generator gen(space, child, IncumbentView<int>(&fifteen, &known, nullptr));
    int last = 1 << 30;
    for (std::size_t k = 0; k < gen.numChildren; ++k, ++checked) {
      const auto c = gen.next();
      EXPECT_LE(c.bound, last);
      EXPECT_TRUE(c.candidates.count() < child.candidates.count());
      last = c.bound;
    }
  }
  EXPECT_GT(checked, 1000u);
}

namespace {

// The largest clique by plain branching, independent of the model.
int bruteForceOmega(const DimacsGraph& g) {
  std::vector<std::vector<char>> a(g.n, std::vector<char>(g.n, 0));
  for (auto [u, v] : g.edges) a[u][v] = a[v][u] = 1;
  int best = 0;
  std::function<void(std::vector<int>&, int)> grow = [&](std::vector<int>& cands, int size) {
    best = std::max(best, size);
    for (std::size_t i = 0; i < cands.size(); ++i) {
      if (size + static_cast<int>(cands.size() - i) <= best) return;
      std::vector<int> next;
      for (std::size_t j = i + 1; j < cands.size(); ++j)
        if (a[cands[i]][cands[j]]) next.push_back(cands[j]);
      grow(next, size + 1);
    }
  };
  std::vector<int> all(g.n);
  std::iota(all.begin(), all.end(), 0);
  grow(all, 0);
  return best;
}

// MaxClique<1> whose generators are told a best of `stale` whatever the search knows.
struct StaleHint : MaxClique<1> {
  using Base = MaxClique<1>;
  struct Space : Base::Space {
    std::atomic<int> stale{0};
    std::atomic<bool> known{true};
  };
  struct Generator : Base::Generator {
    Generator(const Space& s, const Node& p) : Base::Generator(s, p, IncumbentView<int>(&s.stale, &s.known, nullptr)) {}
  };
};

// A G(n, p) random graph drawn from rng.
auto randomGraph(std::mt19937& rng, int n, double p) {
  std::bernoulli_distribution edge(p);
  std::vector<std::pair<int, int>> edges;
  for (int u = 0; u < n; ++u)
    for (int v = u + 1; v < n; ++v)
      if (edge(rng)) edges.emplace_back(u, v);
  return fromEdges(n, edges);
}

}  // namespace

TEST(MaxCliqueModel, RandomGraphsMatchBruteForceEvenWithAStaleHint) {
  // Re-colouring reads the incumbent it is given; whatever that is, the bounds must stay valid. A
  // best far above the incumbent (n) must give the same omega, only with weaker re-colouring.
  std::mt19937 rng(19);
  for (int trial = 0; trial < 60; ++trial) {
    const double p = trial % 3 == 0 ? 0.5 : trial % 3 == 1 ? 0.7 : 0.9;
    const int n = std::min(20 + trial % 5 * 10, p > 0.8 ? 30 : 60);  // 20..60 vertices
    const auto g = randomGraph(rng, n, p);
    const int omega = bruteForceOmega(g);
    const auto o = solve<Optimisation>(g);
    EXPECT_EQ(o.objective, omega) << "trial " << trial;
    EXPECT_TRUE(formsClique(g, o.clique));
    EXPECT_FALSE(solve<Decision>(g, omega + 1).found) << "trial " << trial;

    using M = StaleHint;
    M::Space space;
    static_cast<M::Base::Space&>(space) = M::makeSpace(g);
    space.stale = n;
    const auto r = seq::search<M, Optimisation>(space, M::root(space), {});
    EXPECT_EQ(*r.objective, omega) << "trial " << trial << " (stale hint)";
  }
}

TEST(MaxCliqueModel, GeneratorsToldOmegaMinusOneStillFindOmega) {
  // The tightest test of the MaxSAT test's bound: every generator re-colours against omega - 1
  // (kmin as large as it can be without being wrong), so a vertex moved below kmin that belongs
  // to every maximum clique would lose the answer. Dense random graphs, where unit propagation
  // finds many inconsistent subsets.
  std::mt19937 rng(42);
  for (int trial = 0; trial < 40; ++trial) {
    const double p = trial % 2 == 0 ? 0.8 : 0.9;
    const int n = p > 0.85 ? 30 + trial % 3 * 5 : 40 + trial % 4 * 5;
    const auto g = randomGraph(rng, n, p);
    const int omega = bruteForceOmega(g);
    for (const bool every : {false, true}) {  // the MaxSAT test up to its first failure, and on every branch
      const auto o = solve<Optimisation>(g, std::nullopt, omega - 1, every);
      ASSERT_TRUE(o.found) << "trial " << trial << " every " << every;
      EXPECT_EQ(o.objective, omega) << "trial " << trial << " every " << every;
      EXPECT_TRUE(formsClique(g, o.clique));
      EXPECT_TRUE(solve<Decision>(g, omega, std::nullopt, every).found) << "trial " << trial << " every " << every;
      EXPECT_FALSE(solve<Decision>(g, omega + 1, std::nullopt, every).found) << "trial " << trial << " every " << every;
    }
  }
}

TEST(MaxCliqueModel, Gen400p0955StartingCliqueIsOptimalAndTheColourSortRootProvesIt) {
  // gen400_p0.9_55 (omega 55, instances/dimacs/ANSWERS.tsv): the first tabu run stops at 52; the
  // colour-sort root would prove 55, so the second run looks for 55 and finds it; the search in
  // that order then ends at its root, and the decision "a clique of 56?" is answered there too.
  using M = MaxClique<8>;
  const auto g = instance("gen400_p0.9_55");
  const auto space = M::makeSpace(g);
  const auto sorted = M::colourSorted(space);
  const auto c = startingClique<8>(space, sorted);
  ASSERT_EQ(c.size(), 55u);
  std::vector<int> file;
  for (int v : c) file.push_back(space.original[static_cast<std::size_t>(v)]);
  EXPECT_TRUE(formsClique(g, file));
  EXPECT_TRUE(M::rootProves(sorted, 55));
  SearchParams<int> p;
  p.initialBound = 55;
  const auto r = seq::search<M, Optimisation>(sorted, M::root(sorted), p);
  EXPECT_FALSE(r.best.has_value());
  EXPECT_EQ(r.stats.nodes, 1u);
  SearchParams<int> d;
  d.expectedObjective = 56;
  const auto none = seq::search<M, Decision>(sorted, M::root(sorted), d);
  EXPECT_FALSE(none.best.has_value());
  EXPECT_EQ(none.stats.nodes, 1u);
}

TEST(MaxCliqueModel, SanPlantedCliquesTheTabuRunMissesTheRootBoundProbeFinds) {
  // san400_0.7_2 (omega 30) and san400_0.7_3 (omega 22), instances/dimacs/ANSWERS.tsv: the tabu run
  // stops well below omega (18, 17), but the root colouring in degeneracy order proves omega, and
  // the probe for a clique of that size finds one; the search from it ends at its root.
  using M = MaxClique<8>;
  for (const auto& [name, omega] : {std::pair{"san400_0.7_2", 30}, std::pair{"san400_0.7_3", 22}}) {
    const auto g = instance(name);
    const auto space = M::makeSpace(g);
    const auto sorted = M::colourSorted(space);
    EXPECT_LT(static_cast<int>(initialClique<8>(space).size()), omega - 3) << name;
    EXPECT_TRUE(M::rootProves(space, omega)) << name;
    EXPECT_FALSE(M::rootProves(space, omega - 1)) << name;  // a clique of omega exists
    const auto c = startingClique<8>(space, sorted);
    ASSERT_EQ(static_cast<int>(c.size()), omega) << name;
    std::vector<int> file;
    for (int v : c) file.push_back(space.original[static_cast<std::size_t>(v)]);
    EXPECT_TRUE(formsClique(g, file)) << name;
    SearchParams<int> p;
    p.initialBound = omega;
    const auto r = seq::search<M, Optimisation>(space, M::root(space), p);
    EXPECT_FALSE(r.best.has_value()) << name;
    EXPECT_EQ(r.stats.nodes, 1u) << name;
  }
}

TEST(MaxCliqueModel, ProbeFindsACliqueOfItsGoalOrProvesNoneOrGivesUp) {
  // probeClique: a clique of the goal when one exists (checked against the graph), nothing and
  // "complete" for omega + 1, nothing and "not complete" when the budget runs out first.
  const auto g = instance("brock200_4");  // omega 17 (instances/dimacs/ANSWERS.tsv)
  using M = MaxClique<4>;
  const auto space = M::makeSpace(g);
  bool complete = false;
  const auto c = probeClique<4>(space, 17, 1'000'000, &complete);
  ASSERT_EQ(c.size(), 17u);
  EXPECT_TRUE(complete);
  std::vector<int> file;
  for (int v : c) file.push_back(space.original[static_cast<std::size_t>(v)]);
  EXPECT_TRUE(formsClique(g, file));
  EXPECT_TRUE(probeClique<4>(space, 18, 1'000'000, &complete).empty());
  EXPECT_TRUE(complete);
  EXPECT_TRUE(probeClique<4>(space, 17, 3, &complete).empty());
  EXPECT_FALSE(complete);
  // On a graph whose root bound is far above omega, the app's probe (run by startingClique) is
  // cut within its budget and startingClique keeps the tabu clique.
  const auto sorted = M::colourSorted(space);
  EXPECT_EQ(startingClique<4>(space, sorted).size(), initialClique<4>(space).size());
}

TEST(MaxCliqueModel, CFat50010GreedyCliqueIsProvedAtTheRootAndTheTabuRunStops) {
  // c-fat500-10 (omega 126): the root proves 126 optimal, so the tabu run, asked after the greedy
  // start and at each larger clique, stops at its first clique of 126; without the stop it runs
  // all its moves and ends with a clique no larger.
  using M = MaxClique<8>;
  const auto g = instance("c-fat500-10");
  const auto space = M::makeSpace(g);
  const auto sorted = M::colourSorted(space);
  std::vector<std::pair<int, bool>> asked;
  const auto stopped = initialClique<8>(space, {.enough = [&](int k) {
                                                  const bool yes = M::rootProves(space, k) || M::rootProves(sorted, k);
                                                  asked.emplace_back(k, yes);
                                                  return yes;
                                                }});
  EXPECT_EQ(stopped.size(), 126u);
  ASSERT_FALSE(asked.empty());
  EXPECT_EQ(asked.back(), std::make_pair(126, true));
  for (std::size_t i = 0; i + 1 < asked.size(); ++i) EXPECT_FALSE(asked[i].second);
  EXPECT_EQ(initialClique<8>(space).size(), 126u);
  EXPECT_EQ(startingClique<8>(space, sorted), stopped);
  std::vector<int> file;
  for (int v : stopped) file.push_back(space.original[static_cast<std::size_t>(v)]);
  EXPECT_TRUE(formsClique(g, file));
  EXPECT_FALSE(M::rootProves(space, 125) || M::rootProves(sorted, 125));
}

TEST(MaxCliqueModel, FrozenBoundTreeDoesNotDependOnWorkers) {
  // A trace's level is a search under a frozen bound: the model's hint must stay at that bound, so
  // the tree (nodes, tasks) is the same on one worker as on two, however the workers race. The
  // bound 19 is below brock200_1's omega (21): the search meets cliques of 20 and 21 on the way.
  using M = MaxClique<4>;
  const auto g = instance("brock200_1");
  const auto space = M::makeSpace(g);
  SearchParams<int> p;
  p.initialBound = 19;
  std::vector<std::uint64_t> nodes;
  for (int run = 0; run < 6; ++run) {
    depth_bounded::Options o;
    o.runtime.threads = 1 + run % 2;
    o.spawnDepth = 2;
    o.frozenBound = true;
    StopFlag stop;
    const auto r = depth_bounded::search<M, Optimisation>(space, M::root(space), p, stop, o);
    EXPECT_FALSE(r.best.has_value());  // frozen: the incumbent never moves from 19
    nodes.push_back(r.stats.nodes);
  }
  for (std::size_t i = 1; i < nodes.size(); ++i) EXPECT_EQ(nodes[i], nodes[0]) << "run " << i;
}

TEST(MaxCliqueModel, TwoSearchesInOneProcessSeeOnlyTheirOwnIncumbent) {
  // The generator reads its own search's incumbent (IncumbentView), never state shared through the
  // Space: an optimisation and a decision for omega + 1 run at once on one Space give what each
  // gives alone, node for node (seq is deterministic). A hint shared through the Space would let
  // the decision's goal (omega + 1, cut below omega) thin the optimisation's tree.
  using M = MaxClique<4>;
  const auto g = instance("brock200_1");  // omega 21 (instances/dimacs/ANSWERS.tsv)
  const auto space = M::makeSpace(g);
  SearchParams<int> decide;
  decide.expectedObjective = 22;
  const auto optAlone = seq::search<M, Optimisation>(space, M::root(space), {});
  const auto decAlone = seq::search<M, Decision>(space, M::root(space), decide);
  for (int round = 0; round < 3; ++round) {
    SearchResult<M, Optimisation> opt;
    SearchResult<M, Decision> dec;
    std::thread a([&] { opt = seq::search<M, Optimisation>(space, M::root(space), {}); });
    std::thread b([&] { dec = seq::search<M, Decision>(space, M::root(space), decide); });
    a.join();
    b.join();
    EXPECT_EQ(*opt.objective, 21);
    EXPECT_TRUE(isClique(g, M::originalVertices(space, *opt.best)));
    EXPECT_FALSE(dec.found());
    EXPECT_EQ(opt.stats.nodes, optAlone.stats.nodes) << "round " << round;
    EXPECT_EQ(dec.stats.nodes, decAlone.stats.nodes) << "round " << round;
  }
  EXPECT_EQ(*optAlone.objective, 21);
  EXPECT_FALSE(decAlone.found());
}

TEST(MaxCliqueModel, TooManyVerticesIsAnInputError) {
  EXPECT_THROW(withWordsFor(maxSupportedVertices + 1, [](auto) { return 0; }), InputError);
  EXPECT_EQ(withWordsFor(maxSupportedVertices, [](auto w) { return static_cast<int>(decltype(w)::value); }), 64);
  EXPECT_EQ(withWordsFor(65, [](auto w) { return static_cast<int>(decltype(w)::value); }), 2);
}

TEST(MaxCliqueModel, NodeRoundTripsThroughCereal) {
  // Stolen nodes cross ranks as cereal archives.
  using M = MaxClique<2>;
  M::Node n;
  n.clique.set(3);
  n.clique.set(99);
  n.candidates.setFirst(70);
  n.size = 2;
  n.bound = 9;
  std::stringstream buf;
  {
    cereal::BinaryOutputArchive out(buf);
    out(n);
  }
  M::Node back;
  {
    cereal::BinaryInputArchive in(buf);
    in(back);
  }
  EXPECT_EQ(back.clique, n.clique);
  EXPECT_EQ(back.candidates, n.candidates);
  EXPECT_EQ(back.size, 2);
  EXPECT_EQ(back.bound, 9);
}
