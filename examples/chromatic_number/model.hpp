// The chromatic number of a graph by DSATUR branch and bound (Brélaz 1979): a MINIMISING model
// (Better = std::less<>). A node is a partial proper colouring; its generator takes the uncoloured
// vertex whose coloured neighbours show the most distinct colours (ties: the most uncoloured
// neighbours, then the lowest number) and gives it each colour it may take, lowest first, then one
// new colour. The same model answers "is the graph k-colourable?" as a decision (decide.cpp).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>

#include "graph.hpp"

namespace chromatic {

// Read-only data, shared by a rank's workers; every rank builds the same one (space.hpp).
struct Space {
  int n = 0;
  std::uint64_t all = 0;                       // the n vertices
  std::array<std::uint64_t, kMaxVertices> adj{};  // adj[v]: v's neighbours
  int clique = 1;                              // size of a clique makeSpace found: a lower bound
};

// Trivially copyable, so it crosses ranks as raw bytes (no serialize()).
struct Node {
  std::array<std::int8_t, kMaxVertices> colour{};  // of each vertex in `coloured`
  std::uint64_t coloured = 0;
  int used = 0;  // colours 0 .. used-1 appear
  bool complete = false;
  // Only a complete colouring is an answer. A partial one scores a placeholder worse than any
  // colouring of 64 vertices, so it never becomes the incumbent (minimise.cpp's initialBound is n + 1).
  static constexpr int kNoAnswer = kMaxVertices + 1;
  int getObj() const { return complete ? used : kNoAnswer; }
};

// The colours of v's coloured neighbours, as a mask.
inline std::uint64_t colourMask(const Space& s, const Node& p, int v) {
  std::uint64_t mask = 0;
  for (std::uint64_t nb = s.adj[v] & p.coloured; nb != 0; nb &= nb - 1)
    mask |= std::uint64_t{1} << p.colour[std::countr_zero(nb)];
  return mask;
}

// DSATUR's choice: the uncoloured vertex of greatest saturation (distinct colours among its
// neighbours), then of most uncoloured neighbours, then the lowest. Its colour mask goes to `mask`.
inline int dsaturVertex(const Space& s, const Node& p, std::uint64_t& mask) {
  const std::uint64_t open = s.all & ~p.coloured;
  int best = -1, bestSat = -1, bestDeg = -1;
  for (std::uint64_t m = open; m != 0; m &= m - 1) {
    const int v = std::countr_zero(m);
    const std::uint64_t c = colourMask(s, p, v);
    const int sat = std::popcount(c), deg = std::popcount(s.adj[v] & open);
    if (sat > bestSat || (sat == bestSat && deg > bestDeg)) best = v, bestSat = sat, bestDeg = deg, mask = c;
  }
  return best;
}

struct Generator {
  Generator(const Space& s, const Node& parent) : parent(parent) {
    if (parent.complete) return;  // every vertex coloured: no children, so every path ends
    std::uint64_t taken = 0;
    v = dsaturVertex(s, parent, taken);
    const std::uint64_t existing = parent.used == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << parent.used) - 1;
    left = existing & ~taken;                            // the colours in use that v may take ...
    if (parent.used < 64) left |= std::uint64_t{1} << parent.used;  // ... and one new colour
    all = s.all;
    numChildren = static_cast<std::size_t>(std::popcount(left));  // counted once, here
  }
  // What next() draws from: a checked build compares it with numChildren (never `given < numChildren`,
  // which could not disagree with it).
  bool hasNext() const { return left != 0; }
  Node next() {
    const int c = std::countr_zero(left);
    left &= left - 1;
    Node child = parent;
    child.colour[v] = static_cast<std::int8_t>(c);
    child.coloured |= std::uint64_t{1} << v;
    child.used = std::max(parent.used, c + 1);
    child.complete = child.coloured == all;
    return child;
  }
  const Node& parent;  // the engine keeps the parent alive while its generator lives
  std::uint64_t left = 0, all = 0;
  int v = -1;
  std::size_t numChildren = 0;
};

struct Model {
  using Space = chromatic::Space;
  using Node = chromatic::Node;
  using Generator = chromatic::Generator;
  using Better = std::less<>;  // minimise: bound() is a LOWER bound
  // No colouring below `node` uses fewer colours than it already does, nor fewer than a clique
  // needs. Optimisation prunes a node whose bound is not below the best so far (a new colour that
  // would tie it is never tried); the decision prunes one whose bound exceeds k.
  static int bound(const Space& s, const Node& node) { return std::max(node.used, s.clique); }
};

}  // namespace chromatic
