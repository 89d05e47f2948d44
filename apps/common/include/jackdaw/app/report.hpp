// Machine-readable results: the JSON written by --stats.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/app/context.hpp"
#include "jackdaw/comm/comm_stats.hpp"
#include "jackdaw/distributed/launch.hpp"
#include "jackdaw/core/stats.hpp"
#include "jackdaw/core/stop.hpp"
#include "jackdaw/core/worker_report.hpp"

namespace jackdaw::app {

// What --stats keeps across the searches of a run, in AppContext::features (feature_states.hpp):
// the RunStats feature (run.hpp) and addWorkerReports fill it, runJson reports it, and runMain
// writes the common document from it for an app that wrote none.
struct StatsState {
  // Per-worker statistics of the parallel searches run so far (summed over runs, per worker).
  std::vector<WorkerReport> workers;
  nlohmann::json distributed;  // rank 0 of several ranks: the "distributed" section
  // The last search runSearch ran.
  struct LastRun {
    bool ran = false;
    SearchStats stats;
    double seconds = 0;
    StopReason stop = StopReason::None;
  } lastRun;
  bool written = false;  // writeStats ran
};

nlohmann::json toJson(const SearchStats& s);
std::string toString(StopReason r);

// The part of the stats document every app shares: command line, options, timing, counters.
nlohmann::json runJson(const AppContext& ctx, const SearchStats& stats, double seconds, StopReason stop);

// Adds one search's per-worker reports to the totals of earlier searches (apps may search
// repeatedly; StatsState::workers); runJson then reports them under "workers".
void addWorkerReports(AppContext& ctx, const std::vector<WorkerReport>& reports);

// The "distributed" section of --stats from rank 0's per-rank report (comm/report_sections.hpp),
// with the time the ranks took to set up.
nlohmann::json distributedJson(const distributed::Report& report);

// Now in UTC, as "2026-11-24T12:00:00Z" (when a checkpoint or a trace was written).
std::string utcTimestamp();

// Rank 0: prints `text` on stdout and flushes it; the reason of a first failure is kept
// (ctx.stdoutErrno) for the message runMain prints at the end.
void print(const AppContext& ctx, const std::string& text);

// Writes the document if --stats was given (rank 0; safe_file.hpp). A failure is not thrown: it
// joins ctx.undelivered, and the run ends with exit code 4 after printing its answer.
void writeStats(const AppContext& ctx, const nlohmann::json& doc);

}  // namespace jackdaw::app
