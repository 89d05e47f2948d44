// Self-avoiding walks on the square lattice — a complete Jackdaw search model.
//
// A walk starts at the origin and takes unit steps north, east, south or west, never visiting a
// cell twice. Counting the walks of each length n is OEIS A001411 (4, 12, 36, 100, 284, ...).
//
// A model is three types: the Space (read-only problem data — none needed here), the Node (one
// search state: a walk) and the Generator (the children of a node, one at a time).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <cereal/types/array.hpp>

namespace saw {

constexpr int kMaxSteps = 31;  // a walk of up to 31 steps fits in the node below

struct Cell {
  std::int8_t x = 0, y = 0;
  bool operator==(const Cell&) const = default;
  template <class Archive> void serialize(Archive& ar) { ar(x, y); }
};

// The Space: nothing to share, every walk starts at the origin.
struct Space {};

// The Node: the walk so far. It is copied into every child and, when another rank steals it,
// serialised (cereal) — so keep it small and give it serialize().
struct Node {
  std::array<Cell, kMaxSteps + 1> path{};  // path[0] is the origin
  int steps = 0;

  bool visited(Cell c) const {
    for (int i = 0; i <= steps; ++i)
      if (path[i] == c) return true;
    return false;
  }
  template <class Archive> void serialize(Archive& ar) { ar(path, steps); }
};

// The Generator: built from (space, parent); says how many children there are (numChildren) and
// hands them out with next(). Jackdaw keeps the parent alive while its generator lives, so holding
// a reference is safe.
struct Generator {
  Generator(const Space&, const Node& parent) : parent(parent) {
    static constexpr int dx[] = {0, 1, 0, -1}, dy[] = {1, 0, -1, 0};
    const Cell at = parent.path[parent.steps];
    for (int d = 0; d < 4; ++d) {
      const Cell c{static_cast<std::int8_t>(at.x + dx[d]), static_cast<std::int8_t>(at.y + dy[d])};
      if (!parent.visited(c)) free[numChildren++] = c;
    }
  }
  Node next() {
    Node child = parent;
    child.path[++child.steps] = free[taken++];
    return child;
  }

  const Node& parent;
  std::array<Cell, 4> free{};
  int numChildren = 0;
  int taken = 0;
};

// The model struct ties the three together (no bound: this is a counting search).
struct Model {
  using Space = saw::Space;
  using Node = saw::Node;
  using Generator = saw::Generator;
};

// An enumerator folds the visited nodes into a result: here, walks counted by length. combine()
// merges the partial counts of different workers and ranks; serialize() lets them travel.
struct CountByLength {
  std::vector<std::uint64_t> counts;
  void accumulate(const Node& n) {
    if (static_cast<std::size_t>(n.steps) >= counts.size()) counts.resize(n.steps + 1, 0);
    ++counts[n.steps];
  }
  void combine(const CountByLength& o) {
    if (o.counts.size() > counts.size()) counts.resize(o.counts.size(), 0);
    for (std::size_t i = 0; i < o.counts.size(); ++i) counts[i] += o.counts[i];
  }
  const std::vector<std::uint64_t>& get() const { return counts; }
  template <class Archive> void serialize(Archive& ar) { ar(counts); }
};

}  // namespace saw
