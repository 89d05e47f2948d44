// vertex_cover: a minimum vertex cover of a graph of at most 64 vertices (a DIMACS .clq file, or
// its complement), by branch and bound through jackdaw::solve: on one process or on every rank of
// an MPI job (rank 0 prints the answer).
//
//   vertex_cover --graph MANN_a9.clq --complement                      all cores of this machine
//   mpirun -n 2 vertex_cover --graph MANN_a9.clq --complement --skeleton budget
//
// The complement's minimum cover is n - omega (a cover's complement is an independent set of the
// complement graph, i.e. a clique of the graph), so the DIMACS clique answers check it.
#include <bit>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "jackdaw/jackdaw.hpp"
#include "model.hpp"

namespace {

// The DIMACS edge format: "p edge N M", then "e U V" (1-based); comments "c ...".
vertex_cover::Space readDimacs(const std::string& path, bool complement) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  vertex_cover::Space s;
  std::string line, tag;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    if (!(f >> tag) || tag == "c") continue;
    if (tag == "p") {
      std::string format;
      f >> format >> s.n;
      if (s.n < 1 || s.n > 64) throw std::runtime_error(path + ": this example takes 1 to 64 vertices");
      s.adj.assign(static_cast<std::size_t>(s.n), 0);
    } else if (tag == "e") {
      int u = 0, v = 0;
      f >> u >> v;
      if (s.adj.empty() || u < 1 || v < 1 || u > s.n || v > s.n || u == v) throw std::runtime_error(path + ": bad edge: " + line);
      s.adj[u - 1] |= std::uint64_t{1} << (v - 1);
      s.adj[v - 1] |= std::uint64_t{1} << (u - 1);
    }
  }
  if (s.adj.empty()) throw std::runtime_error(path + ": no \"p edge\" line");
  if (complement)
    for (int v = 0; v < s.n; ++v) s.adj[v] = ~s.adj[v] & ~(std::uint64_t{1} << v) & (~std::uint64_t{0} >> (64 - s.n));
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  jackdaw::Job job(argc, argv);  // joins the MPI job (a plain run, or a package without MPI: one rank)
  std::string path;
  bool complement = false;
  jackdaw::SolveOptions o;
  CLI::App cli{"Minimum vertex cover by branch and bound (minimisation)"};
  cli.add_option("--graph", path, "DIMACS graph file (at most 64 vertices)")->required();
  cli.add_flag("--complement", complement, "Cover the complement graph instead");
  cli.add_option("--skeleton", o.skeleton, "How the work is split")
      ->capture_default_str()
      ->check(CLI::IsMember(jackdaw::skeletons::names()));
  cli.add_option("--threads", o.settings.parallel.runtime.threads, "Workers per rank (0: one per CPU)");
  cli.add_option("-d,--spawn-depth", o.settings.spawnDepth, "depth_bounded: nodes above this depth become tasks");
  cli.add_option("-b,--budget", o.settings.budget, "budget: backtracks before work is split off");
  CLI11_PARSE(cli, argc, argv);
  try {
    const auto space = readDimacs(path, complement);
    // Minimising from an initial bound: only covers smaller than all n vertices count (any graph
    // has one: all vertices but one), so pruning starts at once.
    jackdaw::SearchParams<int> params;
    params.initialBound = space.n;
    const auto r = jackdaw::solve<vertex_cover::Model, jackdaw::Optimisation>(space, vertex_cover::Node{}, params, o);
    if (job.rank() != 0) return 0;
    if (!r.best) throw std::runtime_error("no cover smaller than " + std::to_string(space.n) + " was found");
    std::cout << "vertices: " << space.n << "\nminimum cover: " << *r.objective << "\ncover:";
    for (int v = 0; v < space.n; ++v)
      if (r.best->cover >> v & 1) std::cout << " " << v + 1;
    std::cout << "\nnodes: " << r.stats.nodes << ", prunes: " << r.stats.prunes << ", time: " << r.seconds << " s\n";
    // Check the answer: every edge has an end in the cover, of the size reported.
    if (space.open(r.best->cover) != 0 || std::popcount(r.best->cover) != *r.objective)
      throw std::runtime_error("the cover does not check out");
    return 0;
  } catch (const std::exception& e) {
    if (job.rank() == 0) std::cerr << "vertex_cover: " << e.what() << "\n";
    return 1;
  }
}
