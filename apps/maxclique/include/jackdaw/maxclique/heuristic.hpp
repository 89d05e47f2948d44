// The MaxClique app's initial clique: a greedy clique improved by a short, deterministic tabu
// search with (1,1)-swaps and perturbation, run before the search; its size is the search's
// initial bound (docs/maxclique.md, "Initial clique").
//
//   const auto space = MaxClique<W>::makeSpace(g);
//   const std::vector<int> c = initialClique<W>(space);  // search-order indices, a clique
//   const auto best = startingClique<W>(space, MaxClique<W>::colourSorted(space));  // the app's
//
// The steps follow the plateau/swap local searches of the literature (Grosso, Locatelli and
// Pullan 2008; AMTS, Wu and Hao 2012; CliSAT also starts from AMTS), much simplified: a move adds
// a vertex adjacent to the whole clique (the one with the most such neighbours) or, when none is
// left, swaps in a vertex adjacent to all but one clique vertex, which goes out and may not come
// back for a while (tabu). With neither move, or after a long time without improvement, it drops
// part of the clique and goes on from there. The random choices come from a fixed seed, so every
// rank of a distributed run computes the same clique without talking to the others.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "jackdaw/maxclique/model.hpp"

namespace jackdaw::maxclique {

struct HeuristicOptions {
  std::uint64_t steps = 0;  // local search moves; 0: 50 per vertex, at least 20000
  std::uint64_t seed = 0x6a61636b646177ULL;
  std::uint64_t tenure = 7;  // a vertex swapped out stays out for tenure + a random part moves
  int stopAt = 0;            // stop once the clique has this many vertices (0: run every move)
  // Stop once this says a clique of the best size found is enough (checked when the best grows,
  // and after the greedy start): the app passes "a root colouring proves it optimal".
  std::function<bool(int)> enough;
};

template <std::size_t Words>
std::vector<int> initialClique(const typename MaxClique<Words>::Space& s, HeuristicOptions o = {}) {
  using Set = typename MaxClique<Words>::Set;
  const int n = s.n;
  if (n == 0) return {};
  const std::uint64_t steps = o.steps ? o.steps : std::max<std::uint64_t>(20000, 50ULL * static_cast<std::uint64_t>(n));
  std::uint64_t rng = o.seed;
  const auto random = [&](std::uint64_t below) {  // splitmix64
    std::uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (z ^ (z >> 31)) % below;
  };

  // The state: clique C, and for each vertex the number of C's vertices it is not adjacent to
  // (itself excluded), so "adjacent to all of C" is miss == 0 and a swap candidate miss == 1.
  Set clique{}, all{};
  all.setFirst(static_cast<std::size_t>(n));
  int size = 0;
  std::vector<int> miss(static_cast<std::size_t>(n), 0);
  std::vector<std::uint64_t> tabuUntil(static_cast<std::size_t>(n), 0);
  const auto add = [&](std::size_t v) {
    Set far = all;
    far.andNot(s.adj[v]);
    far.reset(v);
    far.forEach([&](std::size_t u) { ++miss[u]; });
    clique.set(v), ++size;
  };
  const auto drop = [&](std::size_t v) {
    Set far = all;
    far.andNot(s.adj[v]);
    far.reset(v);
    far.forEach([&](std::size_t u) { --miss[u]; });
    clique.reset(v), --size;
  };
  const auto addable = [&] {  // outside C, adjacent to all of it
    Set a{};
    for (int v = 0; v < n; ++v)
      if (miss[v] == 0 && !clique.test(v)) a.set(v);
    return a;
  };

  // Greedy start: the last vertex of the degeneracy order (the densest core), then always the
  // candidate with the most neighbours among the candidates.
  add(static_cast<std::size_t>(n - 1));
  for (Set a = addable(); !a.empty(); a = addable()) {
    std::size_t pick = a.first(), most = 0;
    a.forEach([&](std::size_t u) {
      const std::size_t d = (s.adj[u] & a).count();
      if (d > most) most = d, pick = u;
    });
    add(pick);
  }
  Set best = clique;
  int bestSize = size;
  // Whether to stop, decided only when the best clique grows (the loop below reads one flag).
  const int stopAt = o.stopAt;
  const auto enough = [&o, stopAt](int k) { return (stopAt > 0 && k >= stopAt) || (o.enough && o.enough(k)); };
  bool done = enough(bestSize);

  // Tabu tenure 7 plus a random part; a perturbation after n moves without a larger clique.
  const std::uint64_t tenure = o.tenure, patience = static_cast<std::uint64_t>(n);
  std::uint64_t lastImproved = 0;
  for (std::uint64_t step = 1; step <= steps && !done; ++step) {
    Set a = addable();
    std::size_t pick = Set::capacity;
    if (!a.empty()) {
      std::size_t most = 0;
      a.forEach([&](std::size_t u) {
        if (tabuUntil[u] > step) return;
        const std::size_t d = (s.adj[u] & a).count() + 1;
        if (d > most || (d == most && random(2) == 0)) most = d, pick = u;
      });
    }
    if (pick != Set::capacity) {
      add(pick);
      if (size > bestSize) {
        best = clique, bestSize = size, lastImproved = step;
        done = enough(bestSize);
      }
      continue;
    }
    // (1,1)-swap: a vertex missing exactly one clique vertex, chosen at random among the allowed.
    std::size_t seen = 0;
    for (int v = 0; v < n; ++v)
      if (miss[v] == 1 && !clique.test(v) && tabuUntil[v] <= step && random(++seen) == 0) pick = static_cast<std::size_t>(v);
    if (pick != Set::capacity && step - lastImproved < patience) {
      Set out = clique;
      out.andNot(s.adj[pick]);
      const std::size_t w = out.first();
      drop(w);
      tabuUntil[w] = step + tenure + random(size + 1);
      add(pick);
      continue;
    }
    // Stuck (or no progress for a while): keep a random part of the clique around a random vertex.
    const auto v = static_cast<std::size_t>(random(static_cast<std::uint64_t>(n)));
    const Set keep = clique & s.adj[v], was = clique;
    was.forEach([&](std::size_t u) {
      if (!keep.test(u)) drop(u), tabuUntil[u] = step + tenure;
    });
    if (!clique.test(v)) add(v);
    lastImproved = step;
  }

  std::vector<int> out;
  best.forEach([&](std::size_t v) { out.push_back(static_cast<int>(v)); });
  return out;
}

// A depth-first search of `s` for a clique of `goal` vertices that cuts every child whose colouring
// bound is below `goal` (the search of the decision "omega >= goal?"), given up after `budget`
// nodes. Returns the clique found (search-order indices of `s`), or nothing; `complete` says
// whether the search ended within the budget (then nothing found proves omega < goal).
template <std::size_t Words>
std::vector<int> probeClique(const typename MaxClique<Words>::Space& s, int goal, std::uint64_t budget,
                             bool* complete = nullptr) {
  using M = MaxClique<Words>;
  using Node = typename M::Node;
  std::atomic<int> none{0};
  std::atomic<bool> has{false};
  const IncumbentView<int> view(&none, &has, &goal);
  std::uint64_t nodes = 0;
  std::vector<int> found;
  // Recursion on the heap: a generator holds two arrays of maxVertices entries.
  const std::function<bool(const Node&)> dfs = [&](const Node& n) -> bool {
    if (++nodes > budget) return false;
    if (n.size >= goal) {
      n.clique.forEach([&](std::size_t v) { found.push_back(static_cast<int>(v)); });
      return true;
    }
    auto gen = std::make_unique<typename M::Generator>(s, n, view);
    for (std::size_t i = 0; i < gen->numChildren; ++i) {
      const Node c = gen->next();
      if (c.bound < goal) break;  // children come in non-increasing bound order
      if (dfs(c) || nodes > budget) return !found.empty();
    }
    return false;
  };
  dfs(M::root(s));
  if (complete) *complete = nodes <= budget;
  return found;
}

// True if a root colouring, in `s`'s order or in `sorted`'s (the same graph renumbered by
// MaxClique::colourSorted), proves that no clique has more than k vertices.
template <std::size_t Words>
bool rootsProve(const typename MaxClique<Words>::Space& s, const typename MaxClique<Words>::Space& sorted, int k) {
  return MaxClique<Words>::rootProves(s, k) || MaxClique<Words>::rootProves(sorted, k);
}

// "Near the root's bound": a root proves at most this many above the clique in hand. There the
// app aims a second tabu run at the bound (startingClique) and its search, mostly a proof, runs the
// MaxSAT test on every branching vertex (docs/maxclique.md).
inline constexpr int kNearRootBound = 3;

// The app's initial clique, in search-order indices of `s` (`sorted`: the same graph renumbered by
// MaxClique::colourSorted). Each step runs only while neither root colouring (rootProves, in `s`'s
// order and in `sorted`'s) proves the clique in hand optimal:
//  1. initialClique, stopped as soon as a root proves its clique optimal (c-fat500-10: the greedy
//     start already has omega = 126, and the 25,000 tabu moves after it were wasted);
//  2. with k the smallest size that a root would prove optimal (searched up to 16 above the
//     clique, and only if a root proves the clique's size + 16): if k is at most kNearRootBound
//     (3) above the clique, a second initialClique run aimed at k (tenure 1, 50 moves per vertex,
//     at least 20,000, stopped when it gets there; gen400_p0.9_55: 52 -> 55 after 10,836 moves);
//     if k is further above, a probe (probeClique) for a clique of k vertices in the order of that
//     root (the degeneracy order if both), given up after 10 nodes per vertex (at least 2000).
//     On Sanchis's san graphs the root bound is omega while the tabu search stops far below
//     (san400_0.7_2: 18 of 30, san400_0.7_3: 17 of 22); the probe finds omega in 373 and 3,499
//     nodes. Elsewhere (the root's bound far above the clique: random graphs) the probe's
//     colouring bounds end it within a few dozen nodes.
// A clique the probe finds has k vertices and a root proves nothing larger: optimal.
template <std::size_t Words>
std::vector<int> startingClique(const typename MaxClique<Words>::Space& s,
                                const typename MaxClique<Words>::Space& sorted) {
  using M = MaxClique<Words>;
  const auto proves = [&](int k) { return rootsProve<Words>(s, sorted, k); };
  std::vector<int> first = initialClique<Words>(s, {.enough = proves});
  const int known = static_cast<int>(first.size());
  if (known == 0 || proves(known)) return first;

  // A root that proves k proves any larger size too (it re-colours more), so one test at
  // known + 16 rules out the graphs whose root bound is far above (most random graphs).
  const int far = std::min(known + 16, s.n);
  if (!proves(far)) return first;
  int target = known + 1;
  while (target < far && !proves(target)) ++target;
  const std::uint64_t n = static_cast<std::uint64_t>(s.n);
  if (target <= known + kNearRootBound) {
    std::vector<int> second =
        initialClique<Words>(s, {.steps = std::max<std::uint64_t>(20000, 50 * n), .tenure = 1, .stopAt = target, .enough = nullptr});
    return second.size() > first.size() ? second : first;
  }
  const bool bySorted = !M::rootProves(s, target);
  const std::vector<int> c = probeClique<Words>(bySorted ? sorted : s, target, std::max<std::uint64_t>(2000, 10 * n));
  if (c.empty()) return first;
  if (!bySorted) return c;
  std::vector<int> position(n);  // file vertex -> index in s
  for (std::size_t i = 0; i < n; ++i) position[static_cast<std::size_t>(s.original[i])] = static_cast<int>(i);
  std::vector<int> out;
  for (int v : c) out.push_back(position[static_cast<std::size_t>(sorted.original[static_cast<std::size_t>(v)])]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace jackdaw::maxclique
