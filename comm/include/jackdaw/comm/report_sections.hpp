// The parts of a --stats document about stealing between ranks, written once for the apps
// (apps/common/src/report.cpp) and jackdaw-sim (sim/src/report.cpp), so that one reader
// (slurm/campaign.py, the tests) reads both: the options of stealing and the "distributed"
// section, one spelling per field.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/comm/comm_options.hpp"
#include "jackdaw/comm/comm_stats.hpp"
#include "jackdaw/comm/steal_options.hpp"

namespace jackdaw::comm {

// One worker of a rank, as its line in "per_rank" shows it.
struct WorkerLine {
  std::uint64_t worker = 0, tasks = 0, nodes = 0, largestTaskNodes = 0;
  double busyUs = 0, idleUs = 0, workRate = 0;
};

// One rank. `extra`: what a transport adds to its line (jackdaw-sim: the host, the board's
// messages and bytes); its numbers are summed into "totals" as well.
struct RankLine {
  int rank = 0;
  std::uint64_t nodes = 0;
  std::vector<WorkerLine> workers;
  CommStats comm;
  nlohmann::json policy = nlohmann::json::object();  // the policy's own counters (VictimPolicy::stats)
  nlohmann::json extra = nlohmann::json::object();
};

// "distributed": ranks, herding, board, policy_name, per_rank (nodes, busy and idle time, workers,
// steals, comm counters), totals (the same summed), policy (its counters per rank and summed).
nlohmann::json distributedSection(const std::string& policy, const std::vector<RankLine>& ranks);

// Adds the options of stealing to a document's "options": policy, seed, board, board_sample,
// steal ("half" | "one"), seed_tree, seed_redirect (a bool), steal_retry_max_us, and under
// "constants" every constant of the policies by its flag without the dashes ("perf-alpha").
void addStealOptions(nlohmann::json& options, const StealOptions& steal, const CommOptions& comm);

}  // namespace jackdaw::comm
