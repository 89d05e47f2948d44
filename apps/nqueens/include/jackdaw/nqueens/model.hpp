// N-queens: count every placement of n non-attacking queens, one row per tree level.
//
//   jackdaw::nqueens::Board b{12};
//   auto r = jackdaw::seq::search<jackdaw::nqueens::Model, jackdaw::Enumeration<jackdaw::nqueens::CountSolutions>>(
//       b, jackdaw::nqueens::makeRoot(b), {});
//   r.enumerator.get() == 14200
//
// Bitmask kernel: a node holds the columns and both diagonals attacked on the next row; the free
// squares are the complement, and each child takes the lowest free bit. Up to n = 32.
#pragma once

#include <bit>
#include <cstdint>

#include "jackdaw/core/stats.hpp"

namespace jackdaw::nqueens {

struct Board {
  explicit Board(int size = 8) : n(size), columns(size >= 32 ? ~0u : ((1u << size) - 1u)) {}
  int n;
  std::uint32_t columns;  // the board's columns as bits: the n low bits, computed once
  std::uint32_t full() const { return columns; }
};

struct Node {
  std::uint32_t cols = 0;   // columns taken
  std::uint32_t left = 0;   // squares of the next row attacked along "/" diagonals
  std::uint32_t right = 0;  // ... along "\" diagonals
  std::int32_t rowsLeft = 0;  // 0: a queen on every row, a solution
};

inline Node makeRoot(const Board& b) { return Node{0, 0, 0, b.n}; }

struct Model {
  using Space = Board;
  using Node = nqueens::Node;
  // A saved task (a checkpoint; core/model.hpp, ChecksNodes): one queen per row placed so far, in
  // distinct columns of the board, each attacking at most one square of the next row per diagonal.
  // (Which squares those are is not checked: that would need the queens' rows.)
  static bool valid(const Space& b, const Node& q, int depth) {
    const int placed = b.n - q.rowsLeft;
    return q.rowsLeft >= 0 && placed >= 0 && (depth < 0 || depth == placed) && (q.cols & ~b.full()) == 0 &&
           std::popcount(q.cols) == placed && std::popcount(q.left) <= placed && std::popcount(q.right) <= placed &&
           (q.right & ~b.full()) == 0;
  }
  // The children are the free squares' bits; hasNext() says whether one is left, so no node pays
  // for counting them (a popcount is a library call on baseline x86-64).
  struct Generator {
    Generator(const Space& s, const Node& p) : parent(p), free(s.full() & ~(p.cols | p.left | p.right)) {}
    const Node& parent;
    std::uint32_t free;
    bool hasNext() const { return free != 0; }
    Node next() {
      const std::uint32_t bit = free & (0u - free);
      free &= free - 1;
      return Node{parent.cols | bit, (parent.left | bit) << 1, (parent.right | bit) >> 1, parent.rowsLeft - 1};
    }
  };
};

// Counts the nodes with a queen on every row.
struct CountSolutions {
  std::uint64_t solutions = 0;
  void accumulate(const Node& q) { solutions += (q.rowsLeft == 0); }
  void combine(const CountSolutions& o) { solutions += o.solutions; }
  // A solution is a node visited (core/model.hpp, ChecksCounts).
  bool consistentWith(const SearchStats& s) const { return solutions <= s.nodes; }
  std::uint64_t get() const { return solutions; }
};

}  // namespace jackdaw::nqueens
