// graph_colouring: is a random graph k-colourable? A decision search from your own main() through
// the library call jackdaw::solve: on one process, or on every rank of an MPI job (every rank gets
// the whole result; rank 0 prints it and checks the colouring it found).
//
//   graph_colouring --vertices 40 --density 30 --colours 5                       all cores
//   graph_colouring --vertices 40 --density 30 --colours 5 --skeleton budget --threads 2
//   mpirun -n 4 graph_colouring --vertices 50 --density 20 --colours 4 --skeleton budget
//
// The graph: for every pair u < v (u = 0, 1, ...; v = u+1, u+2, ...) the splitmix64 generator,
// seeded with --seed, draws r, and u-v is an edge when r % 100 < --density.
#include <cstdint>
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "jackdaw/jackdaw.hpp"
#include "model.hpp"

namespace {

// splitmix64 (Steele, Lea and Flood): a tiny generator, so the same seed gives the same graph on
// every rank and in any other language.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t operator()() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

}  // namespace

int main(int argc, char** argv) {
  jackdaw::Job job(argc, argv);  // joins the MPI job (a plain run, or a package without MPI: one rank)
  int vertices = 40, density = 30, colours = 5;
  std::uint64_t seed = 1;
  jackdaw::SolveOptions o;
  CLI::App cli{"Graph k-colouring as a decision search"};
  cli.add_option("--vertices", vertices, "Number of vertices (1..64)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cli.add_option("--density", density, "Chance of each edge, in percent")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  cli.add_option("--colours", colours, "Colours k (1..64)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cli.add_option("--seed", seed, "Seed of the random graph")->capture_default_str();
  cli.add_option("--skeleton", o.skeleton, "How the work is split")
      ->capture_default_str()
      ->check(CLI::IsMember(jackdaw::skeletons::names()));
  cli.add_option("--threads", o.settings.parallel.runtime.threads, "Workers per rank (0: one per CPU)")
      ->capture_default_str();
  cli.add_option("-d,--spawn-depth", o.settings.spawnDepth, "depth_bounded: nodes above this depth become tasks")
      ->capture_default_str();
  cli.add_option("-b,--budget", o.settings.budget, "budget: backtracks before work is split off")
      ->capture_default_str();
  CLI11_PARSE(cli, argc, argv);

  graph_colouring::Space space;
  space.n = vertices;
  space.k = colours;
  SplitMix64 rng{seed};
  int edges = 0;
  for (int u = 0; u < vertices; ++u)
    for (int v = u + 1; v < vertices; ++v)
      if (static_cast<int>(rng() % 100) < density) {
        space.adj[u] |= 1ull << v;
        space.adj[v] |= 1ull << u;
        ++edges;
      }

  // Decision: find a node whose getObj() (vertices coloured) reaches expectedObjective. The params'
  // type is SearchParams<int>, int being what getObj() returns.
  jackdaw::SearchParams<int> params;
  params.expectedObjective = vertices;
  try {
    using Model = graph_colouring::Model;
    const auto r = jackdaw::solve<Model, jackdaw::Decision>(space, graph_colouring::Node{}, params, o);
    if (job.rank() != 0) return 0;
    std::cout << "graph: " << vertices << " vertices, " << edges << " edges; colours: " << colours << "\n";
    // found(): a node reached the goal. Without it, a complete search proves there is none.
    std::cout << "colourable: " << (r.found() ? "yes" : "no") << "\n";
    if (r.found()) {
      // Check the colouring: every vertex has one of the k colours, and no edge joins two alike.
      const auto& c = r.best->colour;
      bool proper = r.best->done == vertices;
      for (int u = 0; u < vertices; ++u) {
        proper = proper && c[u] >= 0 && c[u] < colours;
        for (int v = u + 1; v < vertices; ++v) proper = proper && !(((space.adj[u] >> v) & 1) && c[u] == c[v]);
      }
      std::cout << "colours:";
      for (int u = 0; u < vertices; ++u) std::cout << " " << static_cast<int>(c[u]);
      std::cout << "\n";
      if (!proper) {
        std::cerr << "graph_colouring: the colouring found is not proper\n";
        return 1;
      }
    }
    std::cout << "nodes: " << r.stats.nodes << ", prunes: " << r.stats.prunes << ", time: " << r.seconds << " s\n";
    return r.complete() ? 0 : 3;
  } catch (const std::exception& e) {
    // Every rank throws (a bad skeleton for this layout, or the model threw somewhere); rank 0 says why.
    if (job.rank() == 0) std::cerr << "graph_colouring: " << e.what() << "\n";
    return 1;
  }
}
