// The cost of generality, 0/1 knapsack: the app's model (apps/knapsack) run by the seq skeleton,
// against a plain recursive branch and bound written by hand with the same node type, the same
// children (each later item that fits, densest first), Dantzig's bound and the same level prune.
// One search per process.
//
//   generality_knapsack seq|hand FILE [NAME]   prints: profit, nodes, seconds (the search alone);
//                                              NAME: the instance of a Pisinger file
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

#include "jackdaw/knapsack/model.hpp"
#include "jackdaw/knapsack/reader.hpp"
#include "jackdaw/skeletons/seq.hpp"

namespace {

using jackdaw::knapsack::Model;
using jackdaw::knapsack::Node;
using jackdaw::knapsack::Space;

struct Hand {
  const Space& s;
  double best = -std::numeric_limits<double>::infinity();  // no incumbent yet: the root becomes it
  std::uint64_t nodes = 0;
  // Visit (count; a better profit becomes the best), then each later item that fits: a child whose
  // bound does not beat the best ends the level (Model::pruneLevel).
  void search(const Node& p) {
    ++nodes;
    if (p.profit > best) best = p.profit;
    const double room = s.capacity - p.weight;
    for (int j = p.next; j < static_cast<int>(s.weight.size()); ++j) {
      if (s.weight[j] > room) continue;
      Node c{p.profit + s.profit[j], p.weight + s.weight[j], j + 1, p.items};
      c.items.push_back(j);
      if (!(Model::bound(s, c) > best)) break;
      search(c);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4 || (std::strcmp(argv[1], "seq") != 0 && std::strcmp(argv[1], "hand") != 0)) {
    std::fprintf(stderr, "usage: %s seq|hand FILE [NAME]\n", argv[0]);
    return 2;
  }
  const auto inst = jackdaw::knapsack::readInstance(argv[2], jackdaw::knapsack::Format::Auto, argc == 4 ? argv[3] : "");
  const Space s(inst);
  const auto t0 = std::chrono::steady_clock::now();
  double profit = 0;
  std::uint64_t nodes = 0;
  if (argv[1][0] == 's') {
    const auto r = jackdaw::seq::search<Model, jackdaw::Optimisation>(s, s.root(), {});
    profit = *r.objective;
    nodes = r.stats.nodes;
  } else {
    Hand h{s};
    h.search(s.root());
    profit = h.best;
    nodes = h.nodes;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("profit: %.0f\nnodes: %llu\nseconds: %.6f\n", profit, static_cast<unsigned long long>(nodes), seconds);
}
