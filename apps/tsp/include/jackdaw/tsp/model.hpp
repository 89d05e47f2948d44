// Exact symmetric TSP by depth-first branch and bound (minimising the tour length).
//
//   auto inst = jackdaw::tsp::readTsplib(file);
//   auto greedy = jackdaw::tsp::greedyTour(inst);                    // first incumbent
//   auto space = jackdaw::tsp::makeSpace(inst, inst.tourLength(greedy));
//   params.initialBound = inst.tourLength(greedy);   // only STRICTLY shorter tours are recorded:
//   auto r = jackdaw::seq::search<TspModel, jackdaw::Optimisation>(space, rootNode(space), params);
//   // no r.best => the greedy tour is optimal
//
// A node is a path from city 0. Its children extend the path by one unvisited city, nearest
// first. The bound is the path length plus a lower bound on the rest of the tour, i.e. on a
// Hamiltonian path from the last city through every unvisited city back to city 0:
//   MST(unvisited) + cheapest edge last->unvisited + cheapest edge unvisited->0,
// computed on Held-Karp costs c(i,j) + pi_i + pi_j (pi tuned once at the root by subgradient
// ascent on 1-trees) and corrected by the penalties; any pi gives a valid bound, good pi a strong one.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include <cereal/types/vector.hpp>

#include "jackdaw/tsp/instance.hpp"

namespace jackdaw::tsp {

struct Space {
  int n = 0;
  std::vector<std::int32_t> dist;           // n x n
  std::vector<std::vector<int>> nearest;    // per city: the other cities, nearest first
  std::vector<double> pi;                   // Held-Karp penalties
  std::vector<double> cost;                 // n x n: dist + pi_i + pi_j
  std::int32_t d(int i, int j) const { return dist[static_cast<std::size_t>(i) * n + j]; }
};

// Builds the space; `upperBound` (a known tour length) steers the subgradient step size.
Space makeSpace(const Instance& inst, long long upperBound);

inline constexpr long long kNoTour = std::numeric_limits<long long>::max() / 4;

struct Node {
  std::vector<std::uint16_t> path;      // cities in visiting order, path[0] == 0
  std::vector<std::uint64_t> visited;   // bitset over cities
  long long length = 0;                 // sum of the path's edges
  long long tour = kNoTour;             // closed tour length once every city is on the path

  long long getObj() const { return tour; }
  bool isVisited(int c) const { return (visited[c >> 6] >> (c & 63)) & 1; }
  template <class Archive>
  void serialize(Archive& ar) { ar(path, visited, length, tour); }
};

Node rootNode(const Space& s);

// Lower bound on the length of every complete tour extending `node` (the tour itself if complete).
long long lowerBound(const Space& s, const Node& node);

struct Generator {
  const Space& space;
  const Node& parent;
  std::size_t numChildren;
  std::size_t cursor = 0;  // position in space.nearest[last city]

  Generator(const Space& s, const Node& p)
      : space(s), parent(p), numChildren(static_cast<std::size_t>(s.n) - p.path.size()) {}

  Node next() {
    const int last = parent.path.back();
    const auto& order = space.nearest[last];
    while (parent.isVisited(order[cursor])) ++cursor;
    const int c = order[cursor++];
    Node child = parent;
    child.path.push_back(static_cast<std::uint16_t>(c));
    child.visited[c >> 6] |= std::uint64_t{1} << (c & 63);
    child.length += space.d(last, c);
    if (static_cast<int>(child.path.size()) == space.n) child.tour = child.length + space.d(c, 0);
    return child;
  }
};

struct TspModel {
  using Space = tsp::Space;
  using Node = tsp::Node;
  using Generator = tsp::Generator;
  using Better = std::less<>;  // shorter tours are better
  static long long bound(const Space& s, const Node& n) { return lowerBound(s, n); }
};

}  // namespace jackdaw::tsp
