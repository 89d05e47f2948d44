// Small models with answers known in closed form, for testing the engine and the skeletons.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "jackdaw/core/enumerators.hpp"
#include "jackdaw/core/model.hpp"

namespace toy {

// Complete binary tree: every node has two children; with maxDepth D there are 2^(D+1)-1 nodes.
struct BinaryTree {
  struct Space {};
  struct Node {
    int depth = 0;
    std::uint64_t path = 0;  // bits of the left/right choices
  };
  struct Generator {
    Generator(const Space&, const Node& p) : parent(p) {}
    const Node& parent;
    int numChildren = 2;
    int i = 0;
    Node next() { return {parent.depth + 1, (parent.path << 1) | static_cast<std::uint64_t>(i++)}; }
  };
};

struct DepthOf {
  int operator()(const BinaryTree::Node& n) const { return n.depth; }
};

// N-queens, one row per level; counting leaves at depth n counts the solutions.
struct Queens {
  struct Space {
    int n;
  };
  struct Node {
    int row = 0;
    bool full = false;  // a queen on every row: a solution
    std::uint32_t cols = 0, diag1 = 0, diag2 = 0;
    int getObj() const { return row; }
  };
  struct Generator {
    Generator(const Space& s, const Node& p) : parent(p), n(s.n) {
      const std::uint32_t full = (n >= 32) ? ~0u : ((1u << n) - 1);
      free = full & ~(p.cols | p.diag1 | p.diag2);
      numChildren = __builtin_popcount(free);
    }
    const Node& parent;
    int n;
    std::uint32_t free;
    int numChildren;
    Node next() {
      const std::uint32_t bit = free & -free;
      free &= free - 1;
      return {parent.row + 1, parent.row + 1 == n, parent.cols | bit, (parent.diag1 | bit) << 1, (parent.diag2 | bit) >> 1};
    }
  };
};

// Queens whose generator can also count its next child's children without building that child:
// with a depth limit, the engine counts the last two levels above it in bulk.
struct QueensTwoLevels {
  using Space = Queens::Space;
  using Node = Queens::Node;
  struct Generator : Queens::Generator {
    Generator(const Space& s, const Node& p) : Queens::Generator(s, p), space(s) {}
    int countChildrenOfNext() {
      const Node c = next();
      return Queens::Generator(space, c).numChildren;
    }
    const Space& space;
  };
};

// QueensTwoLevels whose generator also drops its leaf children (dead ends and solutions: no
// children of their own), which an enumeration then counts without building (DropsLeaves).
// `dropped` counts them over every search, so a test can see that the engine asked.
struct QueensUnleaved {
  using Space = Queens::Space;
  using Node = Queens::Node;
  struct Generator : QueensTwoLevels::Generator {
    using QueensTwoLevels::Generator::Generator;
    std::size_t dropLeaves() {
      std::size_t k = 0;
      for (std::uint32_t rest = free; rest != 0; rest &= rest - 1) {
        const std::uint32_t bit = rest & -rest;
        const Node c{parent.row + 1, parent.row + 1 == n, parent.cols | bit, (parent.diag1 | bit) << 1,
                     (parent.diag2 | bit) >> 1};
        if (Queens::Generator(space, c).numChildren == 0) {
          free &= ~bit;
          ++k;
        }
      }
      numChildren -= static_cast<int>(k);
      dropped += k;
      return k;
    }
    inline static std::atomic<std::uint64_t> dropped{0};
  };
};

// Queens whose generator does not count its children but says whether it has another (hasNext),
// as the N-queens app's does: the engine asks before every child, and counts the children at a
// depth limit by building them.
struct QueensUncounted {
  using Space = Queens::Space;
  using Node = Queens::Node;
  struct Generator {  // Queens' children, without exposing its count
    Generator(const Space& s, const Node& p) : queens(s, p) {}
    bool hasNext() const { return queens.free != 0; }
    Node next() { return queens.next(); }
    Queens::Generator queens;
  };
};

struct RowOf {
  int operator()(const Queens::Node& n) const { return n.row; }
};

struct CountSolutions {
  std::uint64_t solutions = 0;
  void accumulate(const Queens::Node& q) { solutions += q.full; }
  void combine(const CountSolutions& o) { solutions += o.solutions; }
  std::uint64_t get() const { return solutions; }
};

// Subset sum as optimisation: pick items (later indices only) to maximise the sum without
// exceeding a capacity; the bound is the current sum plus everything still pickable.
struct SubsetSum {
  struct Space {
    std::vector<int> items;
    int capacity;
  };
  struct Node {
    int next = 0;      // first item index that may still be added
    int sum = 0;
    int remaining = 0; // sum of items[next..]
    int getObj() const { return sum; }
  };
  struct Generator {
    Generator(const Space& s, const Node& p) : space(s), parent(p) {
      for (int i = p.next; i < static_cast<int>(s.items.size()); ++i)
        if (p.sum + s.items[i] <= s.capacity) fits.push_back(i);
      numChildren = static_cast<int>(fits.size());
    }
    const Space& space;
    const Node& parent;
    std::vector<int> fits;
    int numChildren;
    std::size_t k = 0;
    Node next() {
      const int i = fits[k++];
      int rem = 0;
      for (int j = i + 1; j < static_cast<int>(space.items.size()); ++j) rem += space.items[j];
      return {i + 1, parent.sum + space.items[i], rem};
    }
  };
  static int bound(const Space&, const Node& n) { return n.sum + n.remaining; }
};

// SubsetSum with an uncounted generator that finds the next item that fits only when asked
// (hasNext() keeps its scan in a mutable position, as the knapsack app's does), and a level
// prune: a later sibling's bound is never above an earlier one's.
struct SubsetSumUncounted {
  using Space = SubsetSum::Space;
  using Node = SubsetSum::Node;
  static constexpr bool pruneLevel = true;
  struct Generator {
    Generator(const Space& s, const Node& p) : space(s), parent(p), i(p.next) {}
    const Space& space;
    const Node& parent;
    mutable int i;  // the next item to try
    bool hasNext() const {
      for (; i < static_cast<int>(space.items.size()); ++i)
        if (parent.sum + space.items[i] <= space.capacity) return true;
      return false;
    }
    Node next() {
      int rem = 0;
      for (int j = i + 1; j < static_cast<int>(space.items.size()); ++j) rem += space.items[j];
      const Node c{i + 1, parent.sum + space.items[i], rem};
      ++i;
      return c;
    }
  };
  static int bound(const Space&, const Node& n) { return n.sum + n.remaining; }
};

}  // namespace toy
