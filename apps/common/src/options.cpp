#include "jackdaw/app/options.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include <CLI/CLI.hpp>

#include "jackdaw/app/test_hooks.hpp"
#include "jackdaw/comm/cli_numbers.hpp"
#include "jackdaw/comm/comm_cli.hpp"
#include "jackdaw/core/cpu_set.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/input_file.hpp"
#include "jackdaw/app/app_skeletons.hpp"
#include "jackdaw/skeletons/auto.hpp"
#include "jackdaw/skeletons/table.hpp"

namespace jackdaw::app {

namespace cli = comm::cli;

namespace {
// "auto", or a whole number in [lo, hi].
template <class T>
CLI::Validator autoOr(T lo, T hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        if (v == "auto") return {};
        const auto x = cli::parseWhole<T>(v);
        if (!x || *x < lo || *x > hi)
          return "must be auto or a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
        return {};
      },
      "INT|auto");
}
}  // namespace

void addCommonOptions(CLI::App& app, CommonOptions& o, const comm::PolicyRegistry& policies) {
  auto skeletonNames = skeletons::names<AppSkeletons>();
  skeletonNames.emplace_back(skeletons::kAuto);
  app.add_option("--skeleton", o.skeleton,
                 "Search skeleton: " + skeletons::join(skeletonNames) +
                     ". auto: seq on one worker of one rank, else the parallel skeleton that fits the search's kind "
                     "(docs/options.md)")
      ->capture_default_str()
      ->check(CLI::IsMember(skeletonNames));
  app.add_option("--threads", o.threads, "Workers per rank (0: one per CPU the process may use)")
      ->capture_default_str()
      ->check(cli::whole(0, 4096));
  app.add_flag("--bind", o.bind, "Pin each worker thread to its own core of the process's CPU set");
  comm::addCommOptions(app, o.comm, o.steal, policies);
  cli::addSwitch(app, "--doorbell", o.comm.doorbell,
                 "Thieves ring the victim's doorbell (one one-sided accumulate) so its workers wake its comm thread "
                 "at once (on/off)");
  // (3.1) lives in core's worker accounting, not in a policy, so its constants are listed here.
  app.add_option("--rate-weight-new", o.workRate.weightNew, "work rate (3.1): weight of the newest idle/work cycle")
      ->capture_default_str()->check(cli::real(0.0, 1e9))->group("Policy constants");
  app.add_option("--rate-weight-old", o.workRate.weightOld, "work rate (3.1): weight of the previous rate")
      ->capture_default_str()->check(cli::real(0.0, 1e9))->group("Policy constants");
  app.add_option("--rate-log-offset", o.workRate.logBase, "work rate (3.1): constant inside both ln()")
      ->capture_default_str()->check(cli::real(1e-12, 1e9))->group("Policy constants");
  comm::addSlowRanks(app, o.slowRanks, o.slowdown, "Factor by which --slow-ranks are slower");
  app.get_option("--slow-ranks")->group("Experiments");
  app.get_option("--slowdown")->group("Experiments");
  cli::addChoice(app, "--board-transport", o.boardTransport,
                 {{"auto", comm::BoardTransport::Auto}, {"rma", comm::BoardTransport::Rma},
                  {"messages", comm::BoardTransport::Messages}},
                 "What carries the load board between ranks: rma (MPI one-sided windows), messages (through the comm "
                 "threads), or auto: a window where MPI can create one, messages otherwise (said once at start)");
  app.add_option("--watchdog", o.comm.watchdogSeconds,
                 "Abort the whole job, naming the rank, when a rank's comm thread has sent no heartbeat for S "
                 "seconds (a rank stopped, swapped out or cut off); 0: off. A long node expansion does not count "
                 "as silence")
      ->capture_default_str()
      ->check(cli::real(0.0, 1e6));
  app.add_option("--checkpoint", o.checkpointDir,
                 "On SIGUSR1/SIGTERM/SIGINT save the unexplored work, the partial result and the incumbent in this "
                 "folder (one file per rank and a manifest, replaced atomically); continue later with --resume")
      ->group("Checkpoint");
  app.add_option("--checkpoint-every", o.checkpointEvery,
                 "Also save a checkpoint every S seconds (the search pauses on every rank to write it); 0: only on a "
                 "signal")
      ->capture_default_str()
      ->check(cli::real(0.0, 1e9))
      ->group("Checkpoint");
  app.add_option("--resume", o.resumeDir,
                 "Continue the search saved in this folder, on any number of ranks and workers and with any parallel "
                 "skeleton; the app's own options and instance must be the ones it was saved with")
      ->group("Checkpoint");
  app.add_flag("--checkpoint-overwrite", o.checkpointOverwrite,
               "Let --checkpoint replace a folder's checkpoint of another search (without it such a folder is "
               "refused)")
      ->needs("--checkpoint")
      ->group("Checkpoint");
  app.add_option("--timeline", o.timelineFile,
                 "Write a timeline of the run to this file (Chrome trace-event JSON: open it in Perfetto, "
                 "chrome://tracing or Speedscope): every worker's tasks and idle time, steals between ranks, "
                 "publications, bounds, stops, termination waves, checkpoints")
      ->group("Timeline");
  app.add_option("--timeline-cap", o.timelineCap,
                 "Events kept per rank (about 40 bytes each in memory); past it the timeline says where it stops")
      ->capture_default_str()
      ->check(cli::whole(std::uint64_t{1}, std::uint64_t{1} << 32))
      ->group("Timeline");
  app.add_option("--trace", o.traceFile,
                 "Record the task tree of the run to this file (for jackdaw-sim): every task's parent, spawn point, "
                 "nodes, CPU time, depth and size on the wire, with the run's options in a JSON header. One rank only; "
                 "branch and bound is searched again with the optimum as its bound, and that run is recorded")
      ->group("Trace");
  app.add_option("--trace-levels", o.traceLevels,
                 "Branch and bound under --trace: also record the tree under this many weaker incumbents (the last "
                 "ones the first run improved through, each frozen for a whole run), so that jackdaw-sim can replay "
                 "when the optimum reaches each rank. Each level is one more search, slower the weaker its bound; no weaker "
                 "level is recorded once one has cost over 20 times the first run's nodes; 0: none")
      ->capture_default_str()
      ->check(cli::whole(0, 8))
      ->group("Trace");
  // -d and -b take a number or "auto"; an app's default_val() reaches the variables (the callback
  // runs for the default). Both default to auto (bench/results/grain_sweep.md); settleDefaults()
  // turns a default auto into the fixed value where auto cannot apply.
  app.add_option_function<std::string>(
         "-d,--spawn-depth",
         [&o](const std::string& v) {
           o.spawnDepthAuto = v == "auto";
           if (!o.spawnDepthAuto) o.spawnDepth = *cli::parseWhole<int>(v);
         },
         "depth_bounded/ordered: nodes above this depth become tasks. auto (depth_bounded): start at " +
             std::to_string(kAutoStartDepth) +
             " and deepen where a task runs past --task-target-ms while workers are hungry. Default: auto for "
             "depth_bounded, " +
             std::to_string(o.spawnDepth) + " for ordered and under --trace")
      ->default_str("auto")
      ->run_callback_for_default()
      ->check(autoOr(0, 1 << 20));
  app.add_option_function<std::string>(
         "-b,--budget",
         [&o](const std::string& v) {
           o.budgetAuto = v == "auto";
           if (!o.budgetAuto) o.budget = *cli::parseWhole<std::uint64_t>(v);
         },
         "budget: backtracks before unexplored siblings are split off; auto: each worker picks it so that the work "
         "between two splits lasts --task-target-ms. Default: auto, " +
             std::to_string(o.budget) + " under --trace")
      ->default_str("auto")
      ->run_callback_for_default()
      ->check(autoOr<std::uint64_t>(1, UINT64_MAX));
  app.add_option("--task-target-ms", o.taskTargetMs,
                 "-d auto / -b auto: how long a worker keeps its work before it splits some off (milliseconds)")
      ->capture_default_str()
      ->check(cli::real(0.001, 1e6));
  app.add_flag("--chunked", o.chunked, "stack_stealing: hand over a whole level instead of one node");
  cli::addSwitch(app, "--hunger-split", o.splitOnHunger,
                 "depth_bounded/budget: a running task hands its shallowest unexplored sibling to a hungry worker "
                 "(of this rank, or a remote thief) at once, besides the splits of -d/-b (on/off). Default: on, "
                 "off under --trace (a trace records a task tree that timing does not change)");
  app.add_flag("--discrepancy", o.discrepancy, "ordered: run tasks in discrepancy order");
  app.add_option("--stats", o.statsFile, "Write full statistics as JSON to this file");
  comm::cli::addChoice(app, "--log-level", o.logLevel,
                       {{"trace", spdlog::level::trace},
                        {"debug", spdlog::level::debug},
                        {"info", spdlog::level::info},
                        {"warn", spdlog::level::warn},
                        {"error", spdlog::level::err},
                        {"critical", spdlog::level::critical},
                        {"off", spdlog::level::off}},
                       "trace, debug, info, warn, error, off");
  comm::addMemoryLimit(app, o.memoryLimit,
                       "an instance, the timeline, resumed checkpoint records or other buffers may take per process; "
                       "a larger instance or record is refused before it is read into memory",
                       "3/4 of the memory this process may use, here " + formatBytes(o.memoryLimit));
  app.add_option("--progress", o.progressSeconds, "Log a progress line every S seconds (0: never); shown at log level info, the default with it")
      ->capture_default_str()
      ->check(cli::real(0.0, 1e9));
}

void settleDefaults(const CLI::App& app, CommonOptions& o) {
  // A default of auto (not one an app set with default_val, not one the user typed) applies only
  // where auto can: -d auto to depth_bounded, -b auto to budget, neither under --trace (a trace
  // records a task tree that timing does not change).
  const auto defaultAuto = [&app](const char* name) {
    const CLI::Option* opt = app.get_option(name);
    return opt->count() == 0 && opt->get_default_str() == "auto";
  };
  o.skeletonAuto = o.skeleton == skeletons::kAuto;
  o.spawnDepthDefault = defaultAuto("--spawn-depth");
  o.budgetDefault = defaultAuto("--budget");
  if (!o.traceFile.empty() && app.get_option("--hunger-split")->count() == 0) o.splitOnHunger = false;
  settleGrain(o);
}

void settleGrain(CommonOptions& o) {
  const bool fixed = !o.traceFile.empty();
  if (o.spawnDepthDefault) o.spawnDepthAuto = !fixed && o.skeleton == skeletons::DepthBounded::name;
  if (o.budgetDefault) o.budgetAuto = !fixed && o.skeleton == skeletons::Budget::name;
}

bool autoRunsSequentially(const CommonOptions& o, int ranks) {
  const int workers = o.threads > 0 ? o.threads : CpuSet::current().count();
  return ranks == 1 && workers == 1 && o.checkpointDir.empty() && o.resumeDir.empty() && !o.bind && o.slowRanks.empty();
}

void validate(const CommonOptions& o) {
  // Unsettled auto (before the first search) may still become any skeleton of the build.
  const bool unsettled = o.skeleton == skeletons::kAuto;
  if (o.spawnDepthAuto && o.skeleton != skeletons::DepthBounded::name && !unsettled)
    throw InputError("--spawn-depth auto applies only to --skeleton depth_bounded (ordered expands a fixed prefix: give -d N)" +
                     std::string(o.skeletonAuto ? "; --skeleton auto chose " + o.skeleton : ""));
  if (o.budgetAuto && o.skeleton != skeletons::Budget::name && !unsettled)
    throw InputError("--budget auto applies only to --skeleton budget" +
                     std::string(o.skeletonAuto ? "; --skeleton auto chose " + o.skeleton : ""));
  // An option the chosen skeleton would ignore is refused loudly, never ignored.
  const bool parallel = skeletons::isParallel(o.skeleton) || unsettled;
  if (!parallel && o.threads > 1)
    throw InputError("--threads " + std::to_string(o.threads) + " needs a parallel --skeleton (" + o.skeleton +
                     " runs on one thread)");
  if (!parallel && o.bind) throw InputError("--bind needs a parallel --skeleton (" + o.skeleton + " runs on one thread)");
  if (o.chunked && o.skeleton != skeletons::StackStealing::name)
    throw InputError("--chunked applies only to --skeleton stack_stealing");
  if (o.discrepancy && o.skeleton != skeletons::Ordered::name)
    throw InputError("--discrepancy applies only to --skeleton ordered");
  if (!o.slowRanks.empty() && !parallel) throw InputError("--slow-ranks needs a parallel --skeleton");
  if (!parallel && !o.checkpointDir.empty())
    throw InputError("--checkpoint needs a parallel --skeleton (e.g. --skeleton budget --threads 1 for one worker)");
  if (!parallel && !o.resumeDir.empty())
    throw InputError("--resume needs a parallel --skeleton (e.g. --skeleton budget --threads 1 for one worker)");
  if (o.checkpointEvery > 0 && o.checkpointDir.empty()) throw InputError("--checkpoint-every needs --checkpoint DIR");
  if (!o.traceFile.empty() && o.splitOnHunger && (o.skeleton == skeletons::Budget::name || o.skeleton == skeletons::DepthBounded::name))
    throw InputError("--hunger-split on cannot be used with --trace: a trace records a task tree that timing does not change "
                     "(jackdaw-sim replays the hunger rule itself)");
  if (!o.traceFile.empty() && !o.resumeDir.empty())
    throw InputError("--trace records a whole search from its root; it cannot follow --resume");
  if (!o.traceFile.empty() && (o.spawnDepthAuto || o.budgetAuto))
    throw InputError("--trace records a task tree that timing does not change; under -d auto or -b auto it does: "
                     "record with a fixed -d N or -b N");
  if (!o.traceFile.empty() && o.checkpointEvery > 0)
    throw InputError("--trace records one uninterrupted search; it cannot be paused by --checkpoint-every");
}

void requireRanks(const std::vector<int>& ranks, int size) {
  for (int r : ranks)
    if (r < 0 || r >= size)
      throw InputError("--slow-ranks: " + std::to_string(r) + " is not a rank of this job (0.." + std::to_string(size - 1) + ")");
}

void addTestHookOptions(CLI::App& app, TestHooks& t) {
  app.add_option("--test-fail-rank", t.failRank, "TEST ONLY: this rank fails as if its input were unreadable")
      ->group("");
  app.add_option("--test-setup-pause", t.setUpPause,
                 "TEST ONLY: wait this many seconds at the end of set-up (after --checkpoint's lock is taken)")
      ->group("");
  app.add_option("--test-start-pause-rank", t.startPauseRank,
                 "TEST ONLY: this rank waits 3 s after the last set-up collective, before its search starts")
      ->group("");
  app.add_option("--test-late-stop-rank", t.launch.stopAfterAgreementRank,
                 "TEST ONLY: with --checkpoint, interrupt this rank just after the ranks agreed the search ended")
      ->group("");
}

}  // namespace jackdaw::app
