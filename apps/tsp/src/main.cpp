// tsp: exact symmetric TSP on a TSPLIB file. Prints the optimal length and a tour (1-based ids).
#include <sstream>
#include <string>
#include <vector>

#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/tsp/greedy.hpp"
#include "jackdaw/tsp/model.hpp"
#include "jackdaw/tsp/tsplib.hpp"

namespace {

std::string tourText(const std::vector<int>& tour) {
  std::ostringstream out;
  for (std::size_t k = 0; k < tour.size(); ++k) out << (k ? " " : "") << tour[k] + 1;
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace jackdaw;
  std::string file;
  bool noGreedyBound = false;
  auto setup = [&](CLI::App& cli) {
    cli.add_option("instance", file, "TSPLIB .tsp file (TYPE: TSP)")->required();
    cli.add_flag("--no-initial-bound", noGreedyBound,
                 "Do not start from the greedy tour's length (the search must find every improvement itself)");
  };
  auto body = [&](app::AppContext& ctx) -> int {
    const tsp::Instance inst = tsp::readTsplib(file, ctx.opts.memoryLimit);
    const std::vector<int> greedy = tsp::greedyTour(inst);
    const long long greedyLen = inst.tourLength(greedy);
    ctx.log->info("{}: {} cities, greedy tour {}", file, inst.n, greedyLen);
    const tsp::Space space = tsp::makeSpace(inst, greedyLen);

    SearchParams<long long> params;
    // The skeleton records only tours strictly shorter than this, so when the search finds
    // nothing the greedy tour itself is optimal.
    if (!noGreedyBound) params.initialBound = greedyLen;
    auto r = app::runSearch<tsp::TspModel, Optimisation>(ctx, space, tsp::rootNode(space), params);

    std::vector<int> tour = greedy;
    long long length = greedyLen;
    if (r.best) {
      tour.assign(r.best->path.begin(), r.best->path.end());
      length = *r.objective;
    }
    app::Answer a;
    a.line("instance", inst.name.empty() ? file : inst.name);
    a.line(r.complete() ? "optimal length" : "best length found (search interrupted)", length);
    a.line("tour", tourText(tour));

    a.fields = {{"instance", file}, {"cities", inst.n}, {"greedy_length", greedyLen}};
    std::vector<int> oneBased;
    for (int c : tour) oneBased.push_back(c + 1);
    a.result = {{"length", length},
                {"optimal", r.complete()},
                {"tour", oneBased},
                {"greedy_was_optimal", r.complete() && !r.best && !noGreedyBound}};
    return app::finish(ctx, r, a);
  };
  return jackdaw::app::runMain(argc, argv, "tsp", "Exact symmetric TSP (TSPLIB) by branch and bound", setup, body);
}
