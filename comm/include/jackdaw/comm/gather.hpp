// End-of-search gathers to rank 0 (called on the main thread after CommThread::waitTermination).
//
//   auto blobs = gatherBlobs(MPI_COMM_WORLD, myBytes);       // rank 0: one blob per rank
//   nlohmann::json j = gatherStats(MPI_COMM_WORLD, comm.stats());  // rank 0: {"ranks":[…],"totals":{…}}
//
// Both are collective; on ranks other than 0 they return empty values.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/comm/comm_stats.hpp"

namespace jackdaw::comm {

std::vector<std::vector<std::byte>> gatherBlobs(MPI_Comm comm, std::span<const std::byte> mine);

nlohmann::json toJson(const CommStats& s);
nlohmann::json gatherStats(MPI_Comm comm, const CommStats& mine);

}  // namespace jackdaw::comm
