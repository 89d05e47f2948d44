// The command-line vocabulary every Jackdaw app shares (CLI11). An app adds its own instance
// options to the same CLI::App, then calls validate().
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <spdlog/common.h>

#include "jackdaw/comm/board_scheme.hpp"
#include "jackdaw/comm/comm_options.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/comm/steal_options.hpp"
#include "jackdaw/core/memory_budget.hpp"
#include "jackdaw/core/work_rate.hpp"

namespace CLI {
class App;  // CLI11; options.cpp and main.hpp include it
}

namespace jackdaw::app {

struct CommonOptions {
  // A name in the skeleton table (skeletons/table.hpp), or "auto" (skeletons/auto.hpp) until the
  // first search settles it (settleSkeleton, run.hpp): from then on the skeleton that runs.
  std::string skeleton = "auto";
  bool skeletonAuto = false;           // --skeleton auto: settled per search, by its kind
  // Between ranks (comm::addCommOptions, the flags jackdaw-sim takes too): --policy and its
  // constants, --seed, --board, --board-sample here; --steal, --seed-tree, --seed-redirect,
  // --steal-retry-max-us, --steal-hold-us, and the apps' own --doorbell and --watchdog straight into `comm`.
  comm::StealOptions steal;
  comm::CommOptions comm;
  comm::BoardTransport boardTransport = comm::BoardTransport::Auto;  // --board-transport
  int threads = 0;                     // 0: one worker per CPU this process may use
  bool bind = false;                   // pin each worker to its own core (hwloc)
  int spawnDepth = 2;                  // -d N (-d auto starts at jackdaw::kAutoStartDepth, grain.hpp)
  std::uint64_t budget = 100000;       // -b N, backtracks (-b auto's fallback under --trace)
  bool spawnDepthAuto = false;         // -d auto (the default for depth_bounded): the cutoff deepens
  bool budgetAuto = false;             // -b auto (the default for budget): each worker picks its budget
  bool spawnDepthDefault = false;      // -d not given and its default is auto: auto where the skeleton takes it
  bool budgetDefault = false;          // the same for -b
  double taskTargetMs = 2.0;           // --task-target-ms: what -d auto / -b auto aim a task's slice at
  bool chunked = false;                // stack_stealing: hand over a whole level
  bool splitOnHunger = true;           // --hunger-split: depth_bounded/budget feed hungry workers at once
  bool discrepancy = false;            // ordered: discrepancy order instead of left-to-right
  std::string statsFile;               // --stats FILE (JSON)
  spdlog::level::level_enum logLevel = spdlog::level::warn;  // --log-level
  double progressSeconds = 0.0;        // --progress S: a progress line every S seconds
  WorkRateParams workRate;             // --rate-*: the constants of the per-worker work rate (3.1)
  std::vector<int> slowRanks;          // --slow-ranks 1,3: ranks made slower (contention experiments)
  double slowdown = 3.0;               // --slowdown F: a slow rank's task takes F times as long
  std::string checkpointDir;           // --checkpoint DIR: an interrupted search saves its work here
  double checkpointEvery = 0.0;        // --checkpoint-every S: also save every S seconds (0: never)
  std::string resumeDir;               // --resume DIR: continue the search saved there
  bool checkpointOverwrite = false;    // --checkpoint-overwrite: DIR may hold another search's set
  std::string timelineFile;            // --timeline FILE: a Chrome trace-event timeline of the run
  std::uint64_t timelineCap = 1'000'000;  // --timeline-cap N: events kept per rank
  std::string traceFile;               // --trace FILE: the run's task tree (trace/, docs/simulation.md)
  int traceLevels = 2;                 // --trace-levels N: branch and bound, weaker incumbents recorded too
  std::uint64_t memoryLimit = defaultMemoryLimitBytes();  // --memory-limit SIZE: readers and buffers refuse more
};

// An InputError unless every rank of --slow-ranks is a rank of a job of `size` ranks.
void requireRanks(const std::vector<int>& ranks, int size);

// The policies' flags come from the registry, so a registered policy's constants appear here.
void addCommonOptions(CLI::App& app, CommonOptions& o, const comm::PolicyRegistry& policies);

// After parsing: -d and -b default to auto only for the skeleton that takes it and never under
// --trace; elsewhere their default is the fixed spawnDepth / budget above. Under --skeleton auto
// that waits for the skeleton (settleGrain).
void settleDefaults(const CLI::App& app, CommonOptions& o);
// The -d / -b defaults of the skeleton o.skeleton names (settleDefaults, and again once auto chose one).
void settleGrain(CommonOptions& o);

// Throws InputError for a combination that cannot run (or a feature this build lacks). Under
// --skeleton auto, before it is settled, only what no skeleton could run.
void validate(const CommonOptions& o);

// Whether --skeleton auto runs seq: one worker (--threads, or the CPUs this process may use) on one
// rank, and no option that needs a parallel skeleton (--checkpoint, --resume, --bind, --slow-ranks).
bool autoRunsSequentially(const CommonOptions& o, int ranks);

}  // namespace jackdaw::app
