// Jackdaw in one include, as a package built without MPI (JACKDAW_WITH_MPI=OFF) installs it: the
// same names as the distributed package's jackdaw.hpp, on this process's threads only.
#pragma once

#include "jackdaw/search.hpp"

namespace jackdaw {
using local::solve;
using SolveOptions = local::SolveOptions;
using Job = local::Job;  // the distributed package's is comm::Runtime
}  // namespace jackdaw
