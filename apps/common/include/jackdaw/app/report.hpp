// Machine-readable results: the JSON written by --stats.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/app/main.hpp"
#include "jackdaw/comm/comm_stats.hpp"
#include "jackdaw/distributed/launch.hpp"
#include "jackdaw/core/stats.hpp"
#include "jackdaw/core/stop.hpp"

namespace jackdaw::app {

nlohmann::json toJson(const SearchStats& s);
std::string toString(StopReason r);

// The part of the stats document every app shares: command line, options, timing, counters.
nlohmann::json runJson(const AppContext& ctx, const SearchStats& stats, double seconds, StopReason stop);

// Adds one search's per-worker reports to the totals of earlier searches (apps may search
// repeatedly); runJson then reports them under "workers".
void addWorkerReports(AppContext& ctx, const std::vector<WorkerReport>& reports);

// The "distributed" section of --stats from rank 0's per-rank report: per_rank (search, workers,
// steals, comm counters), totals, and the policy's counters per rank and summed.
nlohmann::json distributedJson(const distributed::Report& report, int ranks);

// Now in UTC, as "2026-11-24T12:00:00Z" (when a checkpoint or a trace was written).
std::string utcTimestamp();

// An InputError naming `option` unless `path` can be written (it may exist: it is not changed;
// if it does not, it is not left behind). Checked at start-up for every output file.
void checkWritable(const std::string& path, const std::string& option);

// Writes the document if --stats was given; an unwritable path is an InputError.
void writeStats(const AppContext& ctx, const nlohmann::json& doc);

}  // namespace jackdaw::app
