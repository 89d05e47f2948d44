#include "jackdaw/app/options.hpp"

#include <map>
#include <set>

#include "jackdaw/core/errors.hpp"

namespace jackdaw::app {

void addCommonOptions(CLI::App& app, CommonOptions& o) {
  app.add_option("--skeleton", o.skeleton, "Search skeleton: seq, depth_bounded, budget, stack_stealing, ordered")
      ->capture_default_str()
      ->check(CLI::IsMember({"seq", "depth_bounded", "budget", "stack_stealing", "ordered"}));
  app.add_option("--threads", o.threads, "Workers per rank (0: one per CPU the process may use)")
      ->capture_default_str()
      ->check(CLI::Range(0, 4096));
  app.add_flag("--bind", o.bind, "Pin each worker thread to its own core of the process's CPU set");
  app.add_option("--policy", o.policy, "Victim policy for stealing between ranks")
      ->capture_default_str()
      ->check(CLI::IsMember({"random", "performance"}));
  app.add_option("-d,--spawn-depth", o.spawnDepth, "depth_bounded/ordered: nodes above this depth become tasks")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 20));
  app.add_option("-b,--budget", o.budget, "budget: backtracks before unexplored siblings are split off")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, UINT64_MAX));
  app.add_flag("--chunked", o.chunked, "stack_stealing: hand over a whole level instead of one node");
  app.add_flag("--discrepancy", o.discrepancy, "ordered: run tasks in discrepancy order");
  app.add_option("--stats", o.statsFile, "Write full statistics as JSON to this file");
  app.add_option("--seed", o.seed, "Seed for randomised choices (victim selection)")->capture_default_str();
  app.add_option("--log-level", o.logLevel, "trace, debug, info, warn, error, off")
      ->capture_default_str()
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  app.add_option("--progress", o.progressSeconds, "Log a progress line every S seconds (0: never)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
}

void validate(const CommonOptions& o) {
  // Options that later stages of the runtime implement are refused loudly, never ignored.
  if (o.skeleton == "seq" && o.threads > 1)
    throw InputError("--threads " + std::to_string(o.threads) + " needs a parallel --skeleton (seq runs on one thread)");
  if (o.skeleton == "seq" && o.bind) throw InputError("--bind needs a parallel --skeleton (seq runs on one thread)");
  if (o.policy != "random") throw InputError("--policy " + o.policy + " is not yet available in this build");
  if (o.chunked && o.skeleton != "stack_stealing") throw InputError("--chunked applies only to --skeleton stack_stealing");
  if (o.discrepancy && o.skeleton != "ordered") throw InputError("--discrepancy applies only to --skeleton ordered");
  if (o.progressSeconds > 0) throw InputError("--progress is not yet available in this build");
}

}  // namespace jackdaw::app
