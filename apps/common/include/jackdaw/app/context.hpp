// What a run of an app knows: its options, logger, MPI job, stop flag and the state the frame's
// features share (AppContext), and the exit codes every app uses. Everything the frame and the
// skeleton runners (run.hpp, finish.hpp) need, without the command-line parser: only main.hpp,
// which an app's main() includes to declare its options, brings in CLI11.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>
#include <spdlog/logger.h>

#include "jackdaw/app/options.hpp"
#include "jackdaw/app/test_hooks.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/core/live_nodes.hpp"
#include "jackdaw/core/stats.hpp"
#include "jackdaw/core/stop.hpp"
#include "jackdaw/core/worker_report.hpp"

namespace jackdaw::app {

class TraceRecorder;  // trace_file.hpp
class SignalStop;      // signals.hpp
class CheckpointLock;  // checkpoint.hpp

// Exit codes shared by every app (documented in the README and docs/running.md).
enum ExitCode : int {
  kSuccess = 0,
  kFailure = 1,      // a run-time failure (exception, failed rank)
  kBadInput = 2,     // bad flags or a missing / malformed instance
  kPartial = 3,      // interrupted: the printed result is partial
  kUndelivered = 4,  // the search completed, but stdout or an output file (--stats, --timeline,
                     // --trace) could not be written: the run's outputs are incomplete
};

struct AppContext {
  std::string name;  // the app's name, as given to runMain ("app" in --stats)
  CommonOptions opts;
  std::shared_ptr<spdlog::logger> log;
  // Per-worker statistics of the parallel searches run so far (summed over runs, per worker);
  // runSearch fills it, runJson reports it.
  std::vector<WorkerReport> workers;

  // The MPI job (a plain `app …` is one rank).
  MPI_Comm world = MPI_COMM_WORLD;
  int rank = 0;
  int size = 1;
  bool setupChecked = false;        // runSearch passed the collective set-up check
  nlohmann::json distributed;       // rank 0: the "distributed" section of --stats
  StopFlag stop;                    // set by SIGUSR1 / SIGTERM / SIGINT: the search stops, partial
  SignalStop* signals = nullptr;    // runMain's: runSearch says when the search starts (signals.hpp)
  LiveNodes live;                   // nodes of the running search, for --progress
  std::vector<std::string> argv;    // the exact command line (for --stats)
  const comm::PolicyRegistry* policies = nullptr;  // what --policy can name (set by runMain)
  const TestHooks* test = nullptr;  // TEST ONLY: the faults --test-* flags inject (test_hooks.hpp); null in production
  nlohmann::json identity;          // the search this command line asks for (checkpoints must match)
  nlohmann::json checkpoint;        // rank 0: the checkpoint written or resumed (for --stats)
  nlohmann::json grain;             // rank 0: the largest task's share of the nodes (for --stats)
  std::string checkpointNote;       // rank 0: a line for stdout after the result
  std::shared_ptr<CheckpointLock> checkpointLock;  // rank 0: --checkpoint DIR's lock, held until the run ends
  std::shared_ptr<TraceRecorder> trace;  // --trace FILE: records the search, writes FILE at finish()
  // The last search runSearch ran, so the frame can write --stats if the app did not.
  struct LastRun {
    bool ran = false;
    SearchStats stats;
    double seconds = 0;
    StopReason stop = StopReason::None;
  } lastRun;
  mutable bool statsWritten = false;  // writeStats ran
  // Rank 0: the outputs that could not be written after the search (--stats, --timeline, --trace),
  // one message each; runMain prints them after the answer and exits 4 (kUndelivered).
  mutable std::vector<std::string> undelivered;
  mutable int stdoutErrno = 0;  // rank 0: why the first failed write to stdout failed (report.hpp, print)
  // Start-up phases, for --stats "startup" (report.cpp): when runMain began, the command line was
  // parsed and checked, and the first search began; and how long MPI_Init took (0: not started,
  // one rank without a launcher).
  struct Startup {
    using Clock = std::chrono::steady_clock;
    Clock::time_point main = Clock::now(), options, search;
    double mpiSeconds = 0;
    bool searched = false;
    void searchStarts() {
      if (!searched) search = Clock::now(), searched = true;
    }
  } startup;
};

// True on the rank that prints the result and writes --stats (rank 0).
inline bool isReporter(const AppContext& ctx) { return ctx.rank == 0; }

}  // namespace jackdaw::app
