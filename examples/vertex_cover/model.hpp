// Minimum vertex cover by branch and bound: a MINIMISING model (Better = std::less<>). A node is
// the vertices chosen so far, an answer once every edge has an end among them. It branches on the
// vertex u with the most uncovered edges: u is in the cover, or all its uncovered neighbours are.
#pragma once
#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

namespace vertex_cover {
struct Space {  // at most 64 vertices
  int n = 0;
  std::vector<std::uint64_t> adj;  // adj[v]: v's neighbours as a bit mask
  std::uint64_t open(std::uint64_t cover) const {  // vertices outside `cover` with an edge outside it
    std::uint64_t m = 0;
    for (int v = 0; v < n; ++v) m |= std::uint64_t{!(cover >> v & 1) && (adj[v] & ~cover)} << v;
    return m;
  }
};
struct Node {  // trivially copyable: crosses ranks as raw bytes
  std::uint64_t cover = 0;  // the vertices chosen: `size` of them, `complete` if every edge is covered
  int size = 0; bool complete = false;
  // A partial node is no answer: its placeholder, 65, is worse than any cover and than main()'s initialBound.
  int getObj() const { return complete ? size : 65; }
};
struct Generator {
  std::size_t numChildren = 0;  // 2 while an edge is uncovered, 0 at a cover: the tree is finite
  Generator(const Space& s, const Node& p) : space(s), parent(p) {
    int most = 0;
    for (std::uint64_t m = s.open(p.cover); m; m &= m - 1) {
      const int v = std::countr_zero(m), d = std::popcount(s.adj[v] & ~p.cover);
      if (d > most) most = d, u = v;
    }
    numChildren = most > 0 ? 2 : 0;
  }
  Node next() {
    const std::uint64_t c = parent.cover | (taken++ == 0 ? std::uint64_t{1} << u : space.adj[u]);
    return {c, std::popcount(c), space.open(c) == 0};
  }
  const Space& space;
  const Node& parent;  // the engine keeps the parent alive while its generator lives
  int u = 0, taken = 0;
};
struct Model {
  using Space = vertex_cover::Space;
  using Node = vertex_cover::Node;
  using Generator = vertex_cover::Generator;
  using Better = std::less<>;  // minimise: bound() is a LOWER bound
  static int bound(const Space& s, const Node& n) {  // + a greedy matching of the uncovered edges
    int matched = 0;
    std::uint64_t used = n.cover;  // the cover and the matched vertices
    for (std::uint64_t m = s.open(n.cover); (m &= ~used) != 0;) {
      const int v = std::countr_zero(m);
      const std::uint64_t w = s.adj[v] & ~used;  // v's free neighbours: match v with the first
      used |= (std::uint64_t{1} << v) | (w & -w), matched += w != 0;
    }
    return n.size + matched;
  }
};
}  // namespace vertex_cover
