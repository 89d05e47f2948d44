// The model's Space from a graph: adjacency masks, and a clique found greedily, whose size is a
// lower bound on the colours (every vertex of a clique needs its own).
#pragma once

#include <bit>
#include <cstdint>

#include "graph.hpp"
#include "model.hpp"

namespace chromatic {

inline Space makeSpace(const Graph& g) {
  Space s;
  s.n = g.n;
  s.all = g.n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << g.n) - 1;
  for (const auto& [u, v] : g.edges) {
    s.adj[u] |= std::uint64_t{1} << v;
    s.adj[v] |= std::uint64_t{1} << u;
  }
  // From each vertex, add the candidate with the most neighbours among the candidates until none
  // is left; keep the largest clique.
  for (int start = 0; start < g.n; ++start) {
    int size = 1;
    for (std::uint64_t cand = s.adj[start]; cand != 0; ++size) {
      int pick = std::countr_zero(cand), most = -1;
      for (std::uint64_t m = cand; m != 0; m &= m - 1) {
        const int v = std::countr_zero(m), d = std::popcount(s.adj[v] & cand);
        if (d > most) most = d, pick = v;
      }
      cand &= s.adj[pick];
    }
    if (size > s.clique) s.clique = size;
  }
  return s;
}

}  // namespace chromatic
