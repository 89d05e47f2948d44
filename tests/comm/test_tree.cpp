// Distributed runs of the synthetic tree: all work starts on rank 0; every task must run exactly
// once, the totals match the closed forms, termination is detected and the statistics add up.
#include "run_tree.hpp"

using namespace jackdaw::comm;
using namespace jackdaw::comm::testing;

static int worldSize() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

TEST(Tree, EveryTaskOnceOneAtATime) {
  TreeConfig cfg;
  cfg.n = 3000;
  cfg.spinNs = 100000;  // ~0.3 s of work on rank 0 alone: idle peers surely steal some of it
  auto r = runTree(cfg);
  expectComplete(r, worldSize());
  // With more than one rank and all work on rank 0, somebody must have stolen.
  if (worldSize() > 1 && !r.stats.is_null()) {
    EXPECT_GT(r.stats["totals"]["tasks_received"].get<double>(), 0);
  }
}

TEST(Tree, EveryTaskOnceHalfSteals) {
  TreeConfig cfg;
  cfg.n = 3000;
  cfg.branching = 2;
  cfg.opts.stealHalf = true;
  cfg.opts.maxStealsInFlight = 2;
  auto r = runTree(cfg);
  expectComplete(r, worldSize());
}

TEST(Tree, OneWorkerNoSpin) {
  TreeConfig cfg;
  cfg.n = 5000;
  cfg.workers = 1;
  cfg.spinNs = 0;
  auto r = runTree(cfg);
  expectComplete(r, worldSize());
}

TEST(Tree, BoundReachesEveryRank) {
  TreeConfig cfg;
  cfg.n = 500;
  cfg.offerBounds = true;
  auto r = runTree(cfg);
  expectComplete(r, worldSize());
  // Every rank offered 100 + rank before the search; every rank must have heard the maximum.
  EXPECT_EQ(r.lastBound, 100 + worldSize() - 1);
}

TEST(Tree, StopReachesEveryRankAndStillTerminates) {
  TreeConfig cfg;
  cfg.n = 200000;  // large: without the stop this would run for a long time
  cfg.spinNs = 20000;
  cfg.stopFromRank = worldSize() - 1;
  auto r = runTree(cfg);
  EXPECT_EQ(r.stopReason, 1);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    EXPECT_LT(r.processed, cfg.n);
    std::uint64_t twice = 0;
    for (auto h : r.hits) twice += (h > 1);
    EXPECT_EQ(twice, 0u);
  }
}

// Two ranks stop for different reasons (an interruption on rank 0, a found solution on the last
// rank): every rank ends with the higher reason, whichever reaches it first.
TEST(Tree, EveryRankEndsWithTheHighestStopReason) {
  TreeConfig cfg;
  cfg.n = 100000;
  cfg.spinNs = 20000;
  cfg.stopFromRank = 0;
  cfg.stopReason = 1;
  cfg.secondStopFromRank = worldSize() - 1;
  cfg.secondStopReason = 2;
  auto r = runTree(cfg);
  EXPECT_EQ(r.stopReason, 2);
  // And the other way round: the higher reason first, the lower one later changes nothing.
  cfg.stopReason = 2;
  cfg.secondStopReason = 1;
  r = runTree(cfg);
  EXPECT_EQ(r.stopReason, 2);
}
