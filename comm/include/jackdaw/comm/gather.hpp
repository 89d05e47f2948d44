// One collective gather of a byte record per rank to rank 0 (Session::gather uses it).
//
//   auto blobs = gatherBlobs(MPI_COMM_WORLD, myBytes);   // rank 0: one blob per rank; others: {}
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

namespace jackdaw::comm {

std::vector<std::vector<std::byte>> gatherBlobs(MPI_Comm comm, std::span<const std::byte> mine);

}  // namespace jackdaw::comm
