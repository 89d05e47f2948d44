// Whether every worker on this rank's node has a core of its own (Session sets
// CommOptions::ownCores from it). Collective over `world`.
//
//   bool own = workersHaveOwnCores(MPI_COMM_WORLD, workers);   // same answer on a node's ranks
//
// Counts the workers of all ranks sharing the node against the CPUs those ranks may run on (the
// union of their affinity masks: what Slurm's cgroup or mpirun's binding gives them). Our 2-core
// test machines run 4 ranks oversubscribed; a real cluster job gives each worker a core.
#pragma once

#include <mpi.h>

namespace jackdaw::comm {

bool workersHaveOwnCores(MPI_Comm world, int workers);

}  // namespace jackdaw::comm
