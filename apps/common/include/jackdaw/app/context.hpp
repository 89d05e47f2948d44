// What a run of an app knows: its options, logger, MPI job and stop flag, what every feature of
// the frame shares (AppContext), and the exit codes every app uses. Each feature keeps its own
// state across a run in AppContext::features (feature_states.hpp), so that this header names no
// feature. Everything the frame and the skeleton runners (run.hpp, finish.hpp) need, without the
// command-line parser: only main.hpp, which an app's main() includes to declare its options,
// brings in CLI11.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>
#include <spdlog/logger.h>

#include "jackdaw/app/options.hpp"
#include "jackdaw/app/test_hooks.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/core/stop.hpp"

namespace jackdaw::app {

class SignalStop;      // signals.hpp
struct FeatureStates;  // feature_states.hpp

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
  AppContext();
  ~AppContext();
  AppContext(const AppContext&) = delete;
  AppContext& operator=(const AppContext&) = delete;

  std::string name;  // the app's name, as given to runMain ("app" in --stats)
  CommonOptions opts;
  std::shared_ptr<spdlog::logger> log;

  // The MPI job (a plain `app …` is one rank).
  MPI_Comm world = MPI_COMM_WORLD;
  int rank = 0;
  int size = 1;
  bool setupChecked = false;        // runSearch passed the collective set-up check
  StopFlag stop;                    // set by SIGUSR1 / SIGTERM / SIGINT: the search stops, partial
  SignalStop* signals = nullptr;    // runMain's: runSearch says when the search starts (signals.hpp)
  std::vector<std::string> argv;    // the exact command line (for --stats)
  const comm::PolicyRegistry* policies = nullptr;  // what --policy can name (set by runMain)
  const TestHooks* test = nullptr;  // TEST ONLY: the faults --test-* flags inject (test_hooks.hpp); null in production
  // What each feature of the frame keeps across the run (checkpoint, --stats, grain, --trace,
  // --progress); complete where feature_states.hpp is included.
  const std::unique_ptr<FeatureStates> features;
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
