// Graph k-colouring as a decision search: colour vertices 0, 1, ... in turn, with k colours and no
// edge joining two of one colour. A node colours the first `done`; the search asks for done == n.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace graph_colouring {
// Read-only data, shared by a rank's workers: n <= 64 vertices, k colours, adj[v] bit u: edge u-v.
struct Space { int n = 0, k = 0; std::array<std::uint64_t, 64> adj{}; };

// Numbers and arrays: trivially copyable, so it crosses ranks as raw bytes (no serialize()).
struct Node {
  std::array<std::int8_t, 64> colour{};  // of vertices 0 .. done-1
  int done = 0, used = 0;                // vertices coloured; colours 0 .. used-1 appear
  int getObj() const { return done; }
  // The colours (a bit each) of the coloured neighbours of a vertex u >= done.
  std::uint64_t blocked(const Space& s, int u) const {
    std::uint64_t mask = 0;
    for (std::uint64_t nb = s.adj[u] & ((1ull << done) - 1); nb != 0; nb &= nb - 1)
      mask |= 1ull << colour[std::countr_zero(nb)];
    return mask;
  }
};

// Vertex `done` takes each colour its neighbours leave free. Colours are interchangeable, so only
// the first unused one is tried: the k! relabellings of a colouring are one node.
struct Generator {
  Generator(const Space& s, const Node& parent) : parent(parent) {
    if (parent.done == s.n) return;  // a complete colouring has no children
    const std::uint64_t busy = parent.blocked(s, parent.done);
    for (int c = 0; c <= parent.used && c < s.k; ++c)
      if (((busy >> c) & 1) == 0) colours[numChildren++] = static_cast<std::int8_t>(c);
  }
  Node next() {
    Node child = parent;
    child.colour[child.done++] = colours[given];
    child.used += colours[given++] == parent.used;  // the first unused colour is now in use
    return child;
  }
  const Node& parent;  // the engine keeps the parent alive while its generator lives
  std::array<std::int8_t, 64> colours{};
  int numChildren = 0, given = 0;
};

struct Model {
  using Space = graph_colouring::Space;
  using Node = graph_colouring::Node;
  using Generator = graph_colouring::Generator;
  // No node below `node` gets past an uncoloured vertex whose neighbours hold all k colours: its
  // number bounds getObj(), and under the goal s.n it prunes. Siblings' bounds have no order: no pruneLevel.
  static int bound(const Space& s, const Node& node) {
    const std::uint64_t all = ~0ull >> (64 - s.k);  // k bits; 1 <= k <= 64
    for (int u = node.done; u < s.n; ++u)
      if ((node.blocked(s, u) & all) == all) return u;
    return s.n;
  }
};
}  // namespace graph_colouring
