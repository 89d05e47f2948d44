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
#include <cstddef>
#include <cstdint>
#include <vector>

#include "jackdaw/maxclique/model.hpp"

namespace jackdaw::maxclique {

struct HeuristicOptions {
  std::uint64_t steps = 0;  // local search moves; 0: 50 per vertex, at least 20000
  std::uint64_t seed = 0x6a61636b646177ULL;
  std::uint64_t tenure = 7;  // a vertex swapped out stays out for tenure + a random part moves
  int stopAt = 0;            // stop once the clique has this many vertices (0: run every move)
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
  const auto reached = [&] { return o.stopAt > 0 && bestSize >= o.stopAt; };

  // Tabu tenure 7 plus a random part; a perturbation after n moves without a larger clique.
  const std::uint64_t tenure = o.tenure, patience = static_cast<std::uint64_t>(n);
  std::uint64_t lastImproved = 0;
  for (std::uint64_t step = 1; step <= steps && !reached(); ++step) {
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
      if (size > bestSize) best = clique, bestSize = size, lastImproved = step;
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

// The app's initial clique: initialClique, then, where neither root (of `s` and of `sorted`, the
// same graph renumbered by MaxClique::colourSorted) proves that clique optimal but the colour-sort
// root would prove one at most 3 vertices larger, a second run aimed at that size: tenure 1, 250
// moves per vertex (at least 20,000), stopped as soon as it gets there. A clique that ends the
// search at its root is worth a longer local search (gen400_p0.9_55: 52 -> 55); elsewhere (the
// root's bound far above the clique) this costs a few root colourings.
template <std::size_t Words>
std::vector<int> startingClique(const typename MaxClique<Words>::Space& s,
                                const typename MaxClique<Words>::Space& sorted) {
  using M = MaxClique<Words>;
  std::vector<int> first = initialClique<Words>(s);
  const int known = static_cast<int>(first.size());
  if (known == 0 || M::rootProves(sorted, known) || M::rootProves(s, known)) return first;
  for (int target = known + 1; target <= known + 3; ++target)
    if (M::rootProves(sorted, target)) {
      const std::uint64_t n = static_cast<std::uint64_t>(s.n);
      std::vector<int> second = initialClique<Words>(
          s, {.steps = std::max<std::uint64_t>(20000, 250 * n), .tenure = 1, .stopAt = target});
      return second.size() > first.size() ? second : first;
    }
  return first;
}

}  // namespace jackdaw::maxclique
