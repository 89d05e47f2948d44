// saw: count self-avoiding walks by length with any Jackdaw skeleton, on threads and ranks.
//
//   saw -n 12                                    sequential
//   saw -n 14 --skeleton depth_bounded -d 3      all cores
//   mpirun -n 4 saw -n 16 --skeleton budget      four ranks
#include <string>

#include <cereal/types/vector.hpp>

#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"
#include "model.hpp"

int main(int argc, char** argv) {
  int maxSteps = 10;
  // 1. Add the app's own options; the common ones (--skeleton, --threads, --policy, ...) are there.
  auto setup = [&](CLI::App& cli) {
    cli.add_option("-n,--steps", maxSteps, "Longest walk to count")
        ->capture_default_str()
        ->check(CLI::Range(0, saw::kMaxSteps));
  };
  // 2. Build the space and the root, choose the search kind, run with the skeleton the user picked.
  auto body = [&](jackdaw::app::AppContext& ctx) {
    jackdaw::SearchParams<long long> params;
    params.maxDepth = maxSteps;  // walks of maxSteps steps are counted but not extended
    auto r = jackdaw::app::runSearch<saw::Model, jackdaw::Enumeration<saw::CountByLength>>(ctx, saw::Space{},
                                                                                          saw::Node{}, params);
    // 3. Report: the answer's lines and --stats fields; finish adds the lines every app prints
    //    (status, nodes, time, rate), writes --stats and returns the exit code. Rank 0 prints.
    jackdaw::app::Answer a;
    const auto& counts = r.enumerator.get();
    for (std::size_t n = 0; n < counts.size(); ++n) a.line(std::to_string(n), counts[n]);
    a.result["walks_by_length"] = counts;
    return jackdaw::app::finish(ctx, r, a);
  };
  return jackdaw::app::runMain(argc, argv, "saw", "Count self-avoiding walks on the square lattice", setup, body);
}
