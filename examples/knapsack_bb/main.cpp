// knapsack_bb: the best packing of a random 0/1 knapsack instance, by branch and bound, from your
// own main() through the library call jackdaw::solve: on one process, or on every rank of an MPI
// job (every rank gets the whole result; rank 0 prints it).
//
//   knapsack_bb --items 50 --seed 7                                   all cores of this machine
//   knapsack_bb --items 50 --seed 7 --skeleton budget --threads 2
//   mpirun -n 4 knapsack_bb --items 60 --seed 3 --skeleton budget      four ranks
//
// The instance: item i (i = 0, 1, ...) draws its weight, then its profit, from 1..100 with the
// splitmix64 generator seeded with --seed; the capacity is half the total weight (rounded down).
// --correlated makes each profit its weight + 10 instead (the profit is still drawn, then
// replaced): strongly correlated instances, much harder for branch and bound.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <iostream>
#include <numeric>
#include <vector>

#include <CLI/CLI.hpp>

#include "jackdaw/jackdaw.hpp"
#include "model.hpp"

namespace {

// splitmix64 (Steele, Lea and Flood): a tiny generator, so the same seed gives the same instance
// on every rank and in any other language.
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
  int items = 40;
  std::uint64_t seed = 1;
  bool correlated = false;
  jackdaw::SolveOptions o;
  CLI::App cli{"0/1 knapsack by branch and bound with the Dantzig bound"};
  cli.add_option("--items", items, "Number of items (1..64)")->capture_default_str()->check(CLI::Range(1, 64));
  cli.add_option("--seed", seed, "Seed of the random instance")->capture_default_str();
  cli.add_flag("--correlated", correlated, "Profit = weight + 10 (a much harder instance)");
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

  // The instance, in the order it was drawn.
  SplitMix64 rng{seed};
  std::vector<knapsack_bb::Item> drawn(static_cast<std::size_t>(items));
  long long total = 0;
  for (auto& it : drawn) {
    it.weight = 1 + static_cast<long long>(rng() % 100);
    it.profit = 1 + static_cast<long long>(rng() % 100);
    if (correlated) it.profit = it.weight + 10;
    total += it.weight;
  }
  // The Space holds the items densest first (the bound and pruneLevel rely on it); order[k] is the
  // drawn number of the k-th densest item. Densities compare exactly as cross products.
  std::vector<int> order(drawn.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return drawn[a].profit * drawn[b].weight > drawn[b].profit * drawn[a].weight;
  });
  knapsack_bb::Space space;
  space.capacity = total / 2;
  for (int k : order) space.items.push_back(drawn[k]);

  try {
    // Optimisation: the node with the greatest getObj(). The params' type is SearchParams<long long>,
    // long long being what getObj() returns (no maxDepth, no initial bound).
    using Model = knapsack_bb::Model;
    const jackdaw::SearchParams<long long> params;
    const auto r = jackdaw::solve<Model, jackdaw::Optimisation>(space, knapsack_bb::Node{}, params, o);
    if (job.rank() != 0) return 0;
    // The root (nothing packed, profit 0) is a packing too, so a complete search always has a best node.
    if (!r.best) {
      std::cerr << "knapsack_bb: the search ended without a packing\n";
      return 1;
    }
    // Check the answer: the packed items fit and their profits add up to the optimum.
    long long weight = 0, profit = 0;
    std::vector<int> packed;
    for (std::size_t k = 0; k < space.items.size(); ++k) {
      if (((r.best->taken >> k) & 1) == 0) continue;
      weight += space.items[k].weight;
      profit += space.items[k].profit;
      packed.push_back(order[k]);
    }
    std::sort(packed.begin(), packed.end());
    std::cout << "items: " << items << ", capacity: " << space.capacity << "\n";
    std::cout << "optimum: " << *r.objective << "\n";
    std::cout << "packed:";
    for (int i : packed) std::cout << " " << i;
    std::cout << "\nweight: " << weight << "\n";
    std::cout << "nodes: " << r.stats.nodes << ", prunes: " << r.stats.prunes << ", time: " << r.seconds << " s\n";
    if (weight > space.capacity || profit != *r.objective) {
      std::cerr << "knapsack_bb: the packing does not check out (weight " << weight << ", profit " << profit << ")\n";
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    // Every rank throws (a bad skeleton for this layout, or the model threw somewhere); rank 0 says why.
    if (job.rank() == 0) std::cerr << "knapsack_bb: " << e.what() << "\n";
    return 1;
  }
}
