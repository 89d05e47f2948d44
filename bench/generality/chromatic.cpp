// The cost of generality, graph colouring: the out-of-tree example's model (examples/chromatic_number)
// run by the seq skeleton, against a plain recursive DSATUR branch and bound written by hand with
// the same branching, the same bound and the same node type. One search per process.
//
//   generality_chromatic seq|hand FILE     prints: chromatic number, nodes, seconds (the search alone)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "graph.hpp"
#include "jackdaw/skeletons/seq.hpp"
#include "model.hpp"
#include "space.hpp"

namespace {

using chromatic::Node;
using chromatic::Space;

struct Hand {
  const Space& s;
  int best;  // the incumbent: a colouring with fewer colours than this counts
  std::uint64_t nodes = 0;

  // The model's rules by hand: a node is bound-tested, then visited (counted; a complete colouring
  // better than the best becomes it), then its children are made one by one, lowest colour first.
  void search(const Node& p) {
    ++nodes;
    if (p.complete) {
      if (p.used < best) best = p.used;
      return;
    }
    std::uint64_t taken = 0;
    const int v = chromatic::dsaturVertex(s, p, taken);
    for (int c = 0; c <= p.used && c < 64; ++c) {
      if ((taken >> c) & 1) continue;
      Node child = p;
      child.colour[v] = static_cast<std::int8_t>(c);
      child.coloured |= std::uint64_t{1} << v;
      child.used = c + 1 > p.used ? c + 1 : p.used;
      child.complete = child.coloured == s.all;
      if (chromatic::Model::bound(s, child) >= best) continue;  // minimising: not below the best, pruned
      search(child);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "seq") != 0 && std::strcmp(argv[1], "hand") != 0)) {
    std::fprintf(stderr, "usage: %s seq|hand FILE\n", argv[0]);
    return 2;
  }
  const chromatic::Graph g = chromatic::readDimacs(argv[2], chromatic::kMaxVertices, std::uint64_t{1} << 30);
  const Space s = chromatic::makeSpace(g);
  const auto t0 = std::chrono::steady_clock::now();
  int chi = 0;
  std::uint64_t nodes = 0;
  if (argv[1][0] == 's') {
    jackdaw::SearchParams<int> params;
    params.initialBound = g.n + 1;
    const auto r = jackdaw::seq::search<chromatic::Model, jackdaw::Optimisation>(s, Node{}, params);
    chi = *r.objective;
    nodes = r.stats.nodes;
  } else {
    Hand h{s, g.n + 1};
    if (chromatic::Model::bound(s, Node{}) < h.best) h.search(Node{});
    chi = h.best;
    nodes = h.nodes;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("chromatic number: %d\nnodes: %llu\nseconds: %.6f\n", chi, static_cast<unsigned long long>(nodes), seconds);
}
