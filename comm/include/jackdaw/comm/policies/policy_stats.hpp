// Gathers every rank's VictimPolicy::stats() to rank 0 for --stats (collective; call after
// CommThread::waitTermination, next to gatherStats).
//
//   nlohmann::json j = gatherPolicyStats(MPI_COMM_WORLD, *policy);
//   // rank 0: {"policy": name, "ranks": [per-rank stats…], "totals": {summed counters,
//   //          "targets_chosen": summed histogram}}; other ranks: null
#pragma once

#include <mpi.h>

#include <nlohmann/json.hpp>

#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

nlohmann::json gatherPolicyStats(MPI_Comm comm, const VictimPolicy& policy);

}  // namespace jackdaw::comm
