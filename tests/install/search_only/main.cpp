// Counts the solutions of the n-queens problem (OEIS A000170: n = 8 gives 92, n = 10 gives 724)
// with three skeletons of Jackdaw::search, the MPI-free engine, on one process.
//
//   search_only N     prints "seq: C", "depth_bounded: C" and "budget: C"
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <string>

#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "jackdaw/skeletons/seq.hpp"

// One queen per row; a node is the first `row` rows filled, as bitmasks of the attacked columns.
struct Queens {
  struct Space { int n = 0; };
  struct Node {
    int row = 0;
    std::uint32_t cols = 0, left = 0, right = 0;  // columns attacked straight down and diagonally
  };
  struct Generator {
    std::size_t numChildren = 0;
    Generator(const Space& s, const Node& p) : parent(p) {
      if (p.row < s.n) free = ~(p.cols | p.left | p.right) & ((std::uint32_t{1} << s.n) - 1);
      numChildren = static_cast<std::size_t>(std::popcount(free));
    }
    bool hasNext() const { return free != 0; }
    Node next() {
      const std::uint32_t q = free & (~free + 1);  // the lowest free column
      free ^= q;
      return {parent.row + 1, parent.cols | q, (parent.left | q) << 1, (parent.right | q) >> 1};
    }
    const Node& parent;
    std::uint32_t free = 0;
  };
};

struct CountSolutions {  // nodes with a queen on every row
  long long count = 0;
  template <class Space, class Node>
  void accumulate(const Space& s, const Node& n) { count += n.row == s.n; }
  void combine(const CountSolutions& o) { count += o.count; }
  long long get() const { return count; }
};

using Kind = jackdaw::Enumeration<CountSolutions>;

int main(int argc, char** argv) {
  if (argc < 2) return std::cerr << "usage: search_only N\n", 2;
  const Queens::Space space{std::stoi(argv[1])};
  if (space.n < 1 || space.n > 16) return std::cerr << "N: 1 to 16\n", 2;

  std::cout << "seq: " << jackdaw::seq::search<Queens, Kind>(space, {}, {}).enumerator.get() << "\n";

  jackdaw::depth_bounded::Options d;
  d.runtime.threads = 2;
  d.spawnDepth = 2;
  std::cout << "depth_bounded: " << jackdaw::depth_bounded::search<Queens, Kind>(space, {}, {}, d).enumerator.get()
            << "\n";

  jackdaw::budget::Options b;
  b.runtime.threads = 2;
  b.budget = 50;  // small: work is split and stolen often
  std::cout << "budget: " << jackdaw::budget::search<Queens, Kind>(space, {}, {}, b).enumerator.get() << "\n";
  return 0;
}
