// workersHaveOwnCores (node_cores.hpp): the comm thread trusts the doorbell alone only where it
// answers true, so it must agree on every rank and follow the node's CPUs, not this rank's alone.
#include <gtest/gtest.h>
#include <mpi.h>
#include <sched.h>

#include "jackdaw/comm/node_cores.hpp"

using jackdaw::comm::workersHaveOwnCores;

namespace {
int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
// Whether every rank got the same answer.
bool unanimous(bool mine) {
  int v = mine ? 1 : 0, lo = 0, hi = 0;
  MPI_Allreduce(&v, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&v, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}
}  // namespace

TEST(NodeCores, NoWorkersAlwaysFit) { EXPECT_TRUE(workersHaveOwnCores(MPI_COMM_WORLD, 0)); }

TEST(NodeCores, MoreWorkersThanAnyMachineNeverFit) {
  EXPECT_FALSE(workersHaveOwnCores(MPI_COMM_WORLD, 1 << 20));
}

TEST(NodeCores, OneRanksOwnCpusFitWhenTheOthersBringNone) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  // The node's CPUs include rank 0's own, whatever the other ranks' binding.
  const bool fits = workersHaveOwnCores(MPI_COMM_WORLD, rank() == 0 ? CPU_COUNT(&set) : 0);
  EXPECT_TRUE(fits);
}

TEST(NodeCores, EveryRankOfTheNodeGetsTheSameAnswer) {
  // Uneven counts (rank r brings r + 1 workers): the answer is the node's, not each rank's.
  const bool fits = workersHaveOwnCores(MPI_COMM_WORLD, rank() + 1);
  EXPECT_TRUE(unanimous(fits));  // one host in the tests: one node
  const bool over = workersHaveOwnCores(MPI_COMM_WORLD, rank() == 0 ? 1 << 20 : 0);
  EXPECT_FALSE(over);  // rank 0's excess oversubscribes the node for every rank
}
