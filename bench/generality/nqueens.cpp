// The cost of generality, N-queens: the app's model (apps/nqueens) run by the seq skeleton, against
// a plain recursive count written by hand with the same bitmask node and the same children (lowest
// free column first). One search per process. `budget` runs the budget skeleton on 2 workers with
// its default (automatic) grain: the parallel case an engine change must not slow.
//
//   generality_nqueens seq|hand|budget N   prints: solutions, nodes, seconds (the search alone)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "jackdaw/nqueens/model.hpp"
#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/seq.hpp"

namespace {

using jackdaw::nqueens::Node;

struct Hand {
  std::uint32_t full;
  std::uint64_t nodes = 0, solutions = 0;
  // Visit (count the node, and a solution), then each free column of the next row, lowest first.
  void search(const Node& p) {
    ++nodes;
    solutions += p.rowsLeft == 0;
    for (std::uint32_t free = full & ~(p.cols | p.left | p.right); free != 0; free &= free - 1) {
      const std::uint32_t bit = free & (0u - free);
      search(Node{p.cols | bit, (p.left | bit) << 1, (p.right | bit) >> 1, p.rowsLeft - 1});
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode != "seq" && mode != "hand" && mode != "budget") {
    std::fprintf(stderr, "usage: %s seq|hand|budget N\n", argv[0]);
    return 2;
  }
  const jackdaw::nqueens::Board board{std::atoi(argv[2])};
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t solutions = 0, nodes = 0;
  using Kind = jackdaw::Enumeration<jackdaw::nqueens::CountSolutions>;
  if (mode == "seq") {
    const auto r = jackdaw::seq::search<jackdaw::nqueens::Model, Kind>(board, jackdaw::nqueens::makeRoot(board), {});
    solutions = r.enumerator.get();
    nodes = r.stats.nodes;
  } else if (mode == "budget") {
    jackdaw::budget::Options o;
    o.runtime.threads = 2;
    o.grain.automatic = true;  // -b auto, the apps' default
    const auto r = jackdaw::budget::search<jackdaw::nqueens::Model, Kind>(board, jackdaw::nqueens::makeRoot(board), {}, o);
    solutions = r.enumerator.get();
    nodes = r.stats.nodes;
  } else {
    Hand h{board.full()};
    h.search(jackdaw::nqueens::makeRoot(board));
    solutions = h.solutions;
    nodes = h.nodes;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("solutions: %llu\nnodes: %llu\nseconds: %.6f\n", static_cast<unsigned long long>(solutions),
              static_cast<unsigned long long>(nodes), seconds);
}
