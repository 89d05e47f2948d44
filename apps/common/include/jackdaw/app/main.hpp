// The frame of an app's main(): logging, argument parsing, and turning every error into one
// clear message and a non-zero exit.
//
//   int main(int argc, char** argv) {
//     return jackdaw::app::runMain(argc, argv, "maxclique", "Maximum clique", setup, body);
//   }
//
// body runs the search (run.hpp) and ends with app::finish (finish.hpp): the app's answer, the
// summary every app prints, --stats and the exit code.
#pragma once

#include <chrono>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
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

// setup adds the app's own options to the CLI (and may change a common option's default, e.g.
// cli.get_option("--budget")->default_val(1000); the command line still overrides it); body runs
// once parsing and validation succeeded and returns the exit code. If the app asked for --stats
// but wrote none, the frame writes the common part of the document for the last search.
// `policies` are the victim policies --policy may name (default: the
// built-in ones; add your own with PolicyRegistry::add, see comm/policy.hpp).
int runMain(int argc, char** argv, const std::string& name, const std::string& description,
            const std::function<void(CLI::App&)>& setup, const std::function<int(AppContext&)>& body,
            const comm::PolicyRegistry& policies);
int runMain(int argc, char** argv, const std::string& name, const std::string& description,
            const std::function<void(CLI::App&)>& setup, const std::function<int(AppContext&)>& body);
// An app with no options of its own.
int runMain(int argc, char** argv, const std::string& name, const std::string& description,
            const std::function<int(AppContext&)>& body);

}  // namespace jackdaw::app
