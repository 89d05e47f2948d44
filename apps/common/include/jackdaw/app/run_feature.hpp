// The app frame's features. Each hooks into the run of one search (runSearch, run.hpp):
// runChecked sets them up, then calls each feature's hooks in turn, in the order it lists them:
//
//   observers(list)   before the first leg: the observers it adds to every worker, in order
//   searching()       every rank is set up and the first leg is next (collective where a feature
//                     needs it: the timeline's clocks)
//   beforeLeg(so)     before each leg: its part of the leg's options
//   afterLeg(leg)     after each leg: what the leg did; the checkpoint legs say whether another
//                     leg follows (--checkpoint-every)
//   finish(leg)       after the last leg
//
// A feature object lives for one runSearch call. What it keeps across the run (an app may search
// several times; finish() and runMain report at the end) is its state, declared beside it and
// held in AppContext::features (feature_states.hpp); AppContext itself holds only what every
// feature shares (options, logger, MPI job, stop flag, outputs not delivered):
//
//   CheckpointLegs  --checkpoint, --resume        CheckpointState (checkpoint.hpp): the search's
//                                                 identity, --stats "checkpoint", the CHECKPOINT
//                                                 line, the folder's lock
//   RunStats        --stats "workers",            StatsState (report.hpp): per-worker sums, the
//                   "distributed", the last run   "distributed" section, the last run, written
//   GrainCheck      the grain warning             GrainState (grain_check.hpp): --stats "grain"
//   TraceRun        --trace                       TraceState (trace_file.hpp): the recorder
//   ProgressRun     --progress                    ProgressState (progress.hpp): the live counters
//   SlowRanks       --slow-ranks                  nothing beyond the search
//   RunTimeline     --timeline                    nothing beyond the search: written at finish
//
// A feature that needs set-up checks (a file to write, a folder to resume) makes them when
// constructed, before the ranks' collective set-up check.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/core/search_observer.hpp"
#include "jackdaw/core/stats.hpp"
#include "jackdaw/core/stop.hpp"
#include "jackdaw/core/worker_report.hpp"

namespace jackdaw {
struct SolveOptions;  // distributed/solve.hpp
namespace distributed {
struct Report;  // distributed/launch.hpp
}
}  // namespace jackdaw

namespace jackdaw::app {

// One leg of a search (the whole search, unless --checkpoint-every pauses it), as the features
// see it after it ran.
struct Leg {
  using Clock = std::chrono::steady_clock;
  Clock::time_point start, end;   // when its search ran
  SearchStats stats;              // the search so far
  double seconds = 0;             // this leg's search time
  StopReason stop = StopReason::None;
  nlohmann::json incumbent;       // the best objective so far (null: none)
  const std::vector<WorkerReport>* workers = nullptr;  // this rank's workers (empty: sequential)
  const distributed::Report* ranks = nullptr;          // rank 0 of several: every rank's
  // Set by the checkpoint legs:
  bool again = false;             // another leg follows (the timer paused this one)
  bool saved = false;             // a checkpoint was written after it, from savedFrom to savedTo,
  Clock::time_point savedFrom, savedTo;
  std::uint64_t savedTasks = 0;   // holding this many of this rank's tasks
  double allSeconds = 0;          // every leg's search time, those of a resumed checkpoint too
};

class RunFeature {
 public:
  virtual ~RunFeature() = default;
  virtual void observers(std::vector<SearchObserver*>& /*list*/) {}
  virtual void searching() {}
  virtual void beforeLeg(SolveOptions& /*so*/) {}
  virtual void afterLeg(Leg& /*leg*/) {}
  virtual void finish(Leg& /*last*/) {}
};

}  // namespace jackdaw::app
