// jackdaw-sim: replays a recorded search (--trace FILE of any app) on a simulated cluster.
//
//   jackdaw-sim ns.jdtrace --platform study --hosts 20 --policy performance --out run.json
//
// docs/simulation.md: recording, the model, calibration, the output.
#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <new>
#include <optional>
#include <sys/resource.h>

#include "jackdaw/comm/cli_numbers.hpp"
#include "jackdaw/comm/comm_cli.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/hunger_rule.hpp"
#include "jackdaw/core/memory_budget.hpp"
#include "jackdaw/sim/platform.hpp"
#include "jackdaw/sim/replay.hpp"
#include "jackdaw/trace/trace.hpp"

namespace {

namespace cli = jackdaw::comm::cli;

// Exit codes: 2 bad input (a command line, a trace, a run too big for --memory-limit); 3 a
// replay that lost or duplicated work (a simulator bug).
constexpr int kBadInput = 2, kSimulatorBug = 3;

double maxRssMb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"jackdaw-sim: replay a Jackdaw trace on a simulated cluster (SimGrid)"};
  std::string tracePath, presetName = "study", out, corunPath;
  // Unset: the preset's value (the platform), one rank per host, cores minus one worker per rank.
  std::optional<int> hosts, cores, ranks, workers;
  std::optional<double> coreSpeed, latencyUs, gbps, loopLatencyUs, yieldSliceUs, wakeCpuUs, wakeLateUs;
  std::vector<int> slowHosts;
  double slowdown = 2.0;
  bool info = false;
  const auto registry = jackdaw::comm::PolicyRegistry::builtin();
  jackdaw::sim::SimConfig cfg;
  app.add_option("trace", tracePath, "A trace recorded with --trace")->required()->check(CLI::ExistingFile);
  app.add_flag("--info", info, "Print the trace's header and totals, and exit");
  app.add_option("--platform", presetName, "Cluster preset: study (20 x 16, 1 Gb/s Ethernet), modern (1000 x 32, 100 Gb/s), local (1 x 2)")
      ->capture_default_str()
      ->check(CLI::IsMember(jackdaw::sim::presetNames()));
  app.add_option("--hosts", hosts, "Hosts (default: the preset's)")->check(cli::whole(1, 1000000));
  app.add_option("--cores", cores, "Cores per host (default: the preset's)")->check(cli::whole(1, 4096));
  app.add_option("--core-speed", coreSpeed, "A core's speed relative to the recording machine's core (default 1)")
      ->check(cli::real(1e-6, 1e6));
  app.add_option("--latency-us", latencyUs, "Each host link's latency in µs (a message between hosts crosses two)")
      ->check(cli::real(0.0, 1e7));
  app.add_option("--gbps", gbps, "Each host link's bandwidth in Gb/s")->check(cli::real(1e-6, 1e6));
  app.add_option("--loopback-latency-us", loopLatencyUs, "Latency between ranks on one host in µs")->check(cli::real(0.0, 1e7));
  app.add_option("--yield-slice-us", yieldSliceUs,
                 "What a comm thread waits after Open MPI yields its core to a busy worker, on a host with more of "
                 "the job's ranks than cores, in µs (0: not modelled; default: the preset's)")
      ->check(cli::real(0.0, 1e7));
  app.add_option("--wake-cpu-us", wakeCpuUs,
                 "CPU a comm thread spends per sleep and wake-up, in µs (0: not modelled; default: the preset's)")
      ->check(cli::real(0.0, 1e6));
  app.add_option("--wake-late-us", wakeLateUs,
                 "How late a sleeping comm thread runs again after its timeout or a doorbell, in µs of wall time "
                 "(0: not modelled; default: the preset's)")
      ->check(cli::real(0.0, 1e6));
  app.add_option("--ranks", ranks, "Ranks, placed round-robin on the hosts (default: one per host)")->check(cli::whole(1, 10000000));
  app.add_option("--workers", workers, "Worker actors per rank (default: cores per host minus one, as the study ran)")
      ->check(cli::whole(1, 4096));
  // Stealing between ranks: the apps' own flags (comm_cli.hpp), with the same defaults and checks.
  jackdaw::comm::addCommOptions(app, cfg.comm, cfg.steal, registry);
  app.add_option("--slow-hosts", slowHosts, "Hosts whose cores are --slowdown times slower (comma-separated)")
      ->delimiter(',')
      ->check(cli::whole(0, 999999));
  std::vector<int> slowRanks;
  jackdaw::comm::addSlowRanks(app, slowRanks, slowdown, "Factor for --slow-hosts and --slow-ranks");
  app.add_option("--corun", corunPath, "A second trace run at the same time on the same hosts (contended mode)")->check(CLI::ExistingFile);
  std::string corunPolicy;
  app.add_option("--corun-policy", corunPolicy, "The co-running job's victim policy (default: --policy)")->check(CLI::IsMember(registry.names()));
  jackdaw::comm::BoardTransport boardTransport = jackdaw::comm::BoardTransport::Rma;
  cli::addChoice(app, "--board-transport", boardTransport,
                 {{"rma", jackdaw::comm::BoardTransport::Rma}, {"messages", jackdaw::comm::BoardTransport::Messages}},
                 "What carries the load board: rma (one-sided windows), or messages through the comm actors, as the "
                 "runtime between TCP-only hosts: no doorbell, and each record a peer publishes costs the receiving "
                 "comm actor --comm-cost-us");
  app.add_option("--comm-cost-us", cfg.commCostUs, "CPU a comm actor spends per message it handles (µs)")->capture_default_str()->check(cli::real(0.0, 1e6));
  app.add_option("--task-cpu-scale", cfg.taskCpuScale,
                 "Multiply every recorded task's CPU time by this, and nothing else (the comm costs stay as given): "
                 "e.g. a fine recording's real one-worker time over its task CPU, which takes out the tracer's "
                 "per-task cost")
      ->capture_default_str()
      ->check(cli::real(1e-6, 1e6));
  app.add_option("--task-jitter", cfg.taskJitter,
                 "Log-normal noise on each task's CPU time: sigma of its logarithm, mean factor 1, drawn per rank "
                 "from --seed (0: the trace's times; 0.08-0.10 between two recordings of one tree on the 2-core "
                 "development machine)")
      ->capture_default_str()
      ->check(cli::real(0.0, 2.0));
  double seedHoldMs = 1e-3 * static_cast<double>(cfg.comm.seedHoldMax.count());
  app.add_option("--seed-hold-ms", seedHoldMs, "--seed-tree: longest a rank holds a seed request before refusing it (ms)")
      ->capture_default_str()
      ->check(cli::real(0.0, 1e6));
  cli::addChoice(app, "--incumbent", cfg.replayIncumbent, {{"replay", true}, {"optimum", false}},
                 "Branch-and-bound traces with levels (--trace-levels): replay when each rank learns a better bound "
                 "(replay), or let every rank know the optimum from the start (optimum)");
  cli::addChoice(app, "--split", cfg.splitOnHunger, {{"tree", false}, {"hunger", true}},
                 "How tasks are made: as the trace recorded them, each child into its rank's pool at its spawn point "
                 "(tree), or the engine's hunger splitting (hunger): each child onto its worker's private stack, the "
                 "oldest entry moved to the rank's pool only when a worker there is idle or a remote thief found "
                 "the pool empty (record a fine exact tree: budget or depth_bounded with a small grain)");
  app.add_option("--split-check-nodes", cfg.splitCheckNodes,
                 "--split hunger: a busy worker checks for hunger every this many of its task's nodes")
      ->capture_default_str()
      ->check(cli::real(0.0, 1e12));
  app.add_option("--split-cost-ns", cfg.splitCostNs,
                 "--split hunger: CPU a split costs the worker that splits, per task it hands over (ns)")
      ->capture_default_str()
      ->check(cli::real(0.0, 1e12));
  cli::addChoice(app, "--split-chunk", cfg.splitChunk,
                 {{"one", jackdaw::sim::SimConfig::SplitChunk::One}, {"level", jackdaw::sim::SimConfig::SplitChunk::Level},
                  {"rule", jackdaw::sim::SimConfig::SplitChunk::Rule}},
                 "--split hunger: a split hands over the oldest entry of the worker's stack (one), every entry at its "
                 "depth (level), as stack_stealing without and with --chunked, or the oldest entries level after "
                 "level, up to " + std::to_string(jackdaw::kLocalChunk) + " for a worker of the rank and " +
                     std::to_string(jackdaw::kRemoteChunk) + " for a remote thief (rule), as depth_bounded and "
                     "budget split");
  cli::addChoice(app, "--split-remote", cfg.splitDirect, {{"pool", false}, {"direct", true}},
                 "--split hunger: a thief that finds nothing to take makes a busy worker split into the pool, where "
                 "the thief's next request may find it (pool, the runtime's rule), or into the answer to this "
                 "request (direct: a what-if, not what the runtime does)");
  app.add_option("--out", out, "Write the run as JSON (the shape of an app's --stats) to this file");
  std::uint64_t memoryLimit = jackdaw::defaultMemoryLimitBytes();
  jackdaw::comm::addMemoryLimit(app, memoryLimit,
                                "the traces, the simulated platform and the replay may take; a run estimated to "
                                "take more is refused before it starts",
                                "3/4 of the memory this process may use, here " + jackdaw::formatBytes(memoryLimit));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::Success&) {
    return 0;  // --list-policies printed what was asked (help derives from Success too: above)
  } catch (const CLI::ParseError& e) {
    // One line, exit 2, whatever CLI11's own code for the error (105, 106, 109, ...).
    std::string why = e.what();
    std::replace(why.begin(), why.end(), '\n', ' ');
    std::fprintf(stderr, "jackdaw-sim: error: %s (run with --help for the options)\n", why.c_str());
    return kBadInput;
  }
  cfg.comm.seedHoldMax = std::chrono::microseconds(static_cast<std::int64_t>(seedHoldMs * 1000.0));

  jackdaw::trace::Trace trace, corun;
  try {
    trace = jackdaw::trace::read(tracePath, memoryLimit);
    if (!corunPath.empty()) corun = jackdaw::trace::read(corunPath, memoryLimit);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "jackdaw-sim: error: %s\n", e.what());
    return kBadInput;
  }
  if (info) {
    std::cout << trace.header.dump(2) << "\ntasks: " << trace.tasks.size() << "\nnodes: " << trace.totalNodes()
              << "\ncpu seconds: " << 1e-9 * static_cast<double>(trace.totalCpuNs())
              << "\ncritical path seconds: " << 1e-9 * static_cast<double>(trace.criticalPathNs())
              << "\nparallelism (cpu / critical path): "
              << static_cast<double>(trace.totalCpuNs()) / static_cast<double>(std::max<std::uint64_t>(1, trace.criticalPathNs())) << "\n";
    return 0;
  }

  auto& p = cfg.platform;
  p = jackdaw::sim::preset(presetName);
  p.hosts = hosts.value_or(p.hosts);
  p.cores = cores.value_or(p.cores);
  p.coreSpeed = coreSpeed.value_or(p.coreSpeed);
  p.linkLatencyUs = latencyUs.value_or(p.linkLatencyUs);
  p.linkGbps = gbps.value_or(p.linkGbps);
  p.loopbackLatencyUs = loopLatencyUs.value_or(p.loopbackLatencyUs);
  p.yieldSliceUs = yieldSliceUs.value_or(p.yieldSliceUs);
  p.wakeCpuUs = wakeCpuUs.value_or(p.wakeCpuUs);
  p.wakeLateUs = wakeLateUs.value_or(p.wakeLateUs);
  for (int h : slowHosts)
    if (h < 0 || h >= p.hosts) {
      std::fprintf(stderr, "jackdaw-sim: error: --slow-hosts %d: there are %d hosts (0..%d)\n", h, p.hosts, p.hosts - 1);
      return kBadInput;
    }
  p.slowHosts = slowHosts;
  p.slowFactor = slowHosts.empty() ? 1.0 : slowdown;
  cfg.ranks = ranks.value_or(p.hosts);
  for (int r : slowRanks)
    if (r >= cfg.ranks) {
      std::fprintf(stderr, "jackdaw-sim: error: --slow-ranks %d: there are %d ranks (0..%d)\n", r, cfg.ranks, cfg.ranks - 1);
      return kBadInput;
    }
  cfg.slowRanks = slowRanks;
  cfg.slowRankFactor = slowdown;
  cfg.workers = workers.value_or(std::max(1, p.cores - 1));
  // As Session measures it on a real node: ranks go round-robin over the hosts.
  cfg.comm.ownCores = (cfg.ranks + p.hosts - 1) / p.hosts * cfg.workers <= p.cores;
  cfg.boardMessages = boardTransport == jackdaw::comm::BoardTransport::Messages;
  cfg.comm = jackdaw::comm::forTransport(cfg.comm, boardTransport);
  jackdaw::sim::SimConfig corunCfg = cfg;
  corunCfg.label = "corun";
  if (!corunPolicy.empty()) corunCfg.steal.policy = corunPolicy;
  const bool coRunning = !corunPath.empty();

  // Refuse what would not fit before SimGrid allocates any of it.
  const std::uint64_t estimate =
      jackdaw::sim::memoryEstimate(cfg, trace, coRunning ? &corunCfg : nullptr, coRunning ? &corun : nullptr);
  try {
    jackdaw::requireMemory(estimate, memoryLimit,
                           "the simulation (" + std::to_string(p.hosts) + " hosts, " + std::to_string(cfg.ranks) +
                               " ranks x " + std::to_string(cfg.workers) + " workers" + (coRunning ? ", twice" : "") +
                               ", " + std::to_string(trace.tasks.size()) + " tasks)");
  } catch (const jackdaw::InputError& e) {
    std::fprintf(stderr, "jackdaw-sim: error: %s\n", e.what());
    return kBadInput;
  }

  // SimGrid's own flags are not ours to expose: quiet logs, small actor stacks (32k actors at
  // 1,000 × 32 would not fit with the default 8 MiB each) and no guard page per stack (each costs
  // a memory mapping; Linux allows 65,530 per process by default).
  int sgArgc = 1;
  char* sgArgv[] = {argv[0], nullptr};
  simgrid::s4u::Engine engine(&sgArgc, sgArgv);
  xbt_log_control_set("root.thres:critical");
  simgrid::s4u::Engine::set_config("contexts/stack-size:128");
  simgrid::s4u::Engine::set_config("contexts/guard-size:0");
  // The presets state latencies as MPI sees them; SimGrid's default TCP model (LV08) would multiply
  // them by 13 (its fitted latency factor). CM02 is the plain max-min flow model: a message takes
  // the route's latency plus its size over the bottleneck bandwidth shared with other flows.
  simgrid::s4u::Engine::set_config("network/model:CM02");
  jackdaw::sim::buildPlatform(p);
  const auto wall0 = std::chrono::steady_clock::now();
  jackdaw::sim::SimOutcome res;
  try {
    res = jackdaw::sim::simulate(engine, cfg, trace, coRunning ? &corunCfg : nullptr, coRunning ? &corun : nullptr);
  } catch (const std::bad_alloc&) {
    // The estimate was too low for this run: a run-time failure, not bad input.
    std::fprintf(stderr, "jackdaw-sim: error: out of memory (estimated %s; the limit is %s)\n",
                 jackdaw::formatBytes(estimate).c_str(), jackdaw::formatBytes(memoryLimit).c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "jackdaw-sim: error: %s\n", e.what());
    return kBadInput;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  auto& j = res.job;
  j["simulation"]["simulator_wall_seconds"] = wall;
  j["simulation"]["simulator_max_rss_mb"] = maxRssMb();
  j["simulation"]["memory_estimate_mb"] = static_cast<double>(estimate) / (1 << 20);
  j["simulation"]["trace"] = tracePath;
  j["command"] = std::vector<std::string>(argv, argv + argc);
  if (!res.corun.is_null()) j["corun"] = res.corun;
  // A replay that lost or duplicated work is a simulator bug, not a result. Replaying the incumbent,
  // every task runs at most as its weakest version and at least as its strongest (give or take a
  // node per task where it changed version).
  const std::uint64_t nodes = j["stats"]["nodes"].get<std::uint64_t>(), tasks = j["stats"]["tasks"].get<std::uint64_t>();
  bool whole = j["complete"].get<bool>();
  if (j["simulation"]["incumbent"]["replayed"].get<bool>()) {
    std::uint64_t weakest = 0;
    for (const auto& t : trace.levels.back().tasks) weakest += t.nodes;
    whole = whole && nodes + tasks >= trace.totalNodes() && nodes <= weakest + tasks;
  } else {
    whole = whole && nodes == trace.totalNodes() && tasks == trace.tasks.size();
  }
  if (!out.empty()) {
    std::ofstream f(out);
    f << j.dump(1) << "\n";
    if (!f) {
      std::fprintf(stderr, "jackdaw-sim: error: %s: cannot write this file\n", out.c_str());
      return kBadInput;
    }
  }
  const auto& tot = j["distributed"]["totals"];
  const double busy = tot["busy_us"].get<double>(), idle = tot["idle_us"].get<double>();
  std::printf("platform: %s, %d hosts x %d cores, %d ranks x %d workers, policy %s, board %s, seed %llu\n", p.name.c_str(),
              p.hosts, p.cores, cfg.ranks, cfg.workers, cfg.steal.policy.c_str(), jackdaw::comm::boardSchemeName(cfg.steal.board),
              static_cast<unsigned long long>(cfg.steal.seed));
  std::printf("makespan: %.6f s (simulated)\nnodes: %llu\ntasks: %llu\nsteals: %llu requests, %llu granted, %llu refused\n"
              "idle: %.1f %%\nboard: %llu messages, %llu bytes\nsimulator: %.2f s wall, %.0f MB max RSS\n",
              j["seconds"].get<double>(), static_cast<unsigned long long>(j["stats"]["nodes"].get<std::uint64_t>()),
              static_cast<unsigned long long>(j["stats"]["tasks"].get<std::uint64_t>()),
              static_cast<unsigned long long>(tot["steal_requests"].get<std::uint64_t>()),
              static_cast<unsigned long long>(tot["steals_granted"].get<std::uint64_t>()),
              static_cast<unsigned long long>(tot["steals_failed"].get<std::uint64_t>()),
              busy + idle > 0 ? 100.0 * idle / (busy + idle) : 0.0,
              static_cast<unsigned long long>(tot["board_messages"].get<std::uint64_t>()),
              static_cast<unsigned long long>(tot["board_bytes"].get<std::uint64_t>()), wall, maxRssMb());
  if (!whole) {
    std::fprintf(stderr, "jackdaw-sim: error: the replay visited %llu nodes in %llu tasks, the trace holds %llu in %zu"
                 " (its strongest tree)\n",
                 static_cast<unsigned long long>(j["stats"]["nodes"].get<std::uint64_t>()),
                 static_cast<unsigned long long>(j["stats"]["tasks"].get<std::uint64_t>()),
                 static_cast<unsigned long long>(trace.totalNodes()), trace.tasks.size());
    return kSimulatorBug;
  }
  return 0;
}
