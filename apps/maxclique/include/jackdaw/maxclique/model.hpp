// Maximum clique as a Jackdaw search model: MCSa-style bitset branch and bound
// (Tomita's greedy-colouring bound, as in Prosser 2012, "Exact Algorithms for Maximum Clique").
//
//   #include "jackdaw/maxclique/model.hpp"      // link jackdaw_maxclique
//   auto g = jackdaw::maxclique::readDimacs(path);
//   using M = jackdaw::maxclique::MaxClique<4>;  // 4 words: up to 256 vertices (see dispatch.hpp)
//   auto space = M::makeSpace(g);
//   auto r = jackdaw::seq::search<M, jackdaw::Optimisation>(space, M::root(space), {});
//   *r.objective == omega; M::originalVertices(space, *r.best) lists the clique (0-based, file order)
//
// Search order: vertices are renumbered by non-increasing degree. A node is a clique C and its
// candidates P (vertices adjacent to all of C). Its generator colours P greedily; a vertex of
// colour k can extend C by at most k vertices from P, so the child C+v has bound |C| + colour(v).
// Children come in reverse colour order, so bounds never increase along siblings: once one fails,
// the rest fail too (pruneLevel).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "jackdaw/core/bitset.hpp"
#include "jackdaw/maxclique/dimacs.hpp"

namespace jackdaw::maxclique {

template <std::size_t Words>
struct MaxClique {
  using Set = BitSet<Words>;
  static constexpr std::size_t maxVertices = Set::capacity;
  static_assert(maxVertices <= 65536, "vertex indices are stored as uint16");

  struct Space {
    int n = 0;
    std::vector<Set> adj;       // adjacency, in search order
    std::vector<int> original;  // search index -> vertex of the file (0-based)
  };

  struct Node {
    Set clique;      // search-order indices of C
    Set candidates;  // P: vertices adjacent to every vertex of C
    int size = 0;    // |C|
    int bound = 0;   // no clique in this subtree is larger
    int getObj() const { return size; }
    template <class Archive>
    void serialize(Archive& ar) { ar(clique, candidates, size, bound); }
  };

  class Generator {
   public:
    std::size_t numChildren = 0;

    Generator(const Space& space, const Node& parent) : space_(space), parent_(parent), left_(parent.candidates) {
      colour();
      numChildren = next_ = count_;
    }

    Node next() {
      const std::size_t k = --next_;  // highest colour first
      const std::size_t v = order_[k];
      Node c{parent_.clique, left_ & space_.adj[v], parent_.size + 1, parent_.size + colour_[k]};
      c.clique.set(v);
      left_.reset(v);  // later siblings must not use v: the subtree of C+v covered it
      return c;
    }

   private:
    // Greedy colouring of P: each class repeatedly takes the lowest uncoloured vertex and drops
    // its neighbours. Vertices are recorded in the order they were coloured.
    void colour() {
      Set uncoloured = parent_.candidates;
      std::uint16_t col = 0;
      std::size_t low = 0;  // words below `low` of `uncoloured` are empty
      while (true) {
        while (low < Words && uncoloured.word(low) == 0) ++low;
        if (low == Words) break;
        ++col;
        Set q = uncoloured;
        for (std::size_t w = low; w < Words; ++w) {
          while (q.word(w) != 0) {
            const std::size_t v = w * 64 + static_cast<std::size_t>(std::countr_zero(q.word(w)));
            q.andNot(space_.adj[v]);  // full width: a fixed trip count unrolls; measured faster than skipping low words
            q.reset(v);
            uncoloured.reset(v);
            order_[count_] = static_cast<std::uint16_t>(v);
            colour_[count_] = col;
            ++count_;
          }
        }
      }
    }

    const Space& space_;
    const Node& parent_;  // the skeleton keeps the parent alive while we live
    Set left_;            // P minus the vertices already branched on
    std::size_t count_ = 0, next_ = 0;
    // Left uninitialised on purpose: only the first count_ entries are ever read.
    std::array<std::uint16_t, maxVertices> order_;
    std::array<std::uint16_t, maxVertices> colour_;
  };

  static int bound(const Space&, const Node& n) { return n.bound; }
  static constexpr bool pruneLevel = true;

  // Renumbers by non-increasing degree (ties: file order) and builds the adjacency bitsets.
  // The caller picks Words so that g.n <= maxVertices (dispatch.hpp does).
  static Space makeSpace(const DimacsGraph& g) {
    std::vector<int> degree(static_cast<std::size_t>(g.n), 0);
    for (auto [u, v] : g.edges) ++degree[u], ++degree[v];
    Space s;
    s.n = g.n;
    s.original.resize(static_cast<std::size_t>(g.n));
    std::iota(s.original.begin(), s.original.end(), 0);
    std::stable_sort(s.original.begin(), s.original.end(), [&](int a, int b) { return degree[a] > degree[b]; });
    std::vector<int> position(static_cast<std::size_t>(g.n));
    for (int i = 0; i < g.n; ++i) position[s.original[i]] = i;
    s.adj.assign(static_cast<std::size_t>(g.n), Set{});
    for (auto [u, v] : g.edges) {
      s.adj[position[u]].set(position[v]);
      s.adj[position[v]].set(position[u]);
    }
    return s;
  }

  static Node root(const Space& s) {
    Node r;
    r.candidates.setFirst(static_cast<std::size_t>(s.n));
    r.bound = s.n;
    return r;
  }

  // The node's clique as vertices of the file (0-based), ascending.
  static std::vector<int> originalVertices(const Space& s, const Node& n) {
    std::vector<int> out;
    n.clique.forEach([&](std::size_t i) { out.push_back(s.original[i]); });
    std::sort(out.begin(), out.end());
    return out;
  }
};

// True if every pair of `vertices` (0-based) is an edge of g.
inline bool isClique(const DimacsGraph& g, const std::vector<int>& vertices) {
  for (std::size_t i = 0; i < vertices.size(); ++i)
    for (std::size_t j = i + 1; j < vertices.size(); ++j) {
      const auto e = std::minmax(vertices[i], vertices[j]);
      if (e.first == e.second || !std::binary_search(g.edges.begin(), g.edges.end(), std::pair<int, int>(e)))
        return false;
    }
  return true;
}

}  // namespace jackdaw::maxclique
