// Jackdaw in one include: model concepts, the ready-made enumerators, every skeleton by name, and
// jackdaw::solve (one call, one result, on threads and ranks). See jackdaw/distributed/solve.hpp.
// A package built without MPI installs a jackdaw.hpp with the same names on one process
// (jackdaw/search.hpp).
#pragma once

#include "jackdaw/comm/runtime.hpp"
#include "jackdaw/core/enumerators.hpp"
#include "jackdaw/core/model.hpp"
#include "jackdaw/skeletons/table.hpp"
#include "jackdaw/distributed/solve.hpp"

namespace jackdaw {
using Job = comm::Runtime;  // this process's MPI job: jackdaw::Job job(argc, argv); job.rank()
}  // namespace jackdaw
