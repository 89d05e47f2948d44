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

// Seeding (seed_tree.hpp): every rank but 0 sends one seed request to its tree parent and, with
// redirects, one more up the tree for each refusal that named a rank (at most as many as its parent
// has ancestors); the search still runs every task once. Arity 1 makes the longest chain of ranks
// waiting on each other. Rank 0 holds the whole tree when the first seed request reaches it, so
// that one brings work. Later ones need not: a parent whose tasks were stolen by its seeded
// children's policies may run dry and refuse what it holds, by design (seen in about 1 run in 20
// at 4 ranks); with redirects that refusal sends the child on to the grandparent.
TEST(Tree, SeedTreeEveryTaskOnce) {
  for (bool redirect : {true, false})
    for (int arity : {1, 2}) {
      TreeConfig cfg;
      cfg.n = 3000;
      cfg.spinNs = 100000;
      cfg.opts.seedArity = arity;
      cfg.opts.seedHoldMax = std::chrono::seconds(10);
      cfg.opts.seedRedirect = redirect;
      auto r = runTree(cfg);
      expectComplete(r, worldSize());
      if (r.stats.is_null()) continue;  // not rank 0
      const auto& ranks = r.stats["ranks"];
      for (std::size_t i = 0; i < ranks.size(); ++i) {
        const double asked = ranks[i]["seed_requests"].get<double>();
        const double sentOn = ranks[i]["seed_redirects"].get<double>();
        int above = 0;  // ancestors of rank i's parent
        for (int p = i == 0 ? -1 : (static_cast<int>(i) - 1) / arity; p > 0; p = (p - 1) / arity) ++above;
        EXPECT_EQ(asked, i == 0 ? 0.0 : 1.0 + sentOn) << "rank " << i << ", arity " << arity;
        EXPECT_LE(sentOn, redirect ? above : 0) << "rank " << i << ", arity " << arity;
      }
      if (worldSize() > 1) {
        EXPECT_GE(r.stats["totals"]["seeds_granted"].get<double>(), 1.0) << "arity " << arity;
      }
      EXPECT_LE(r.stats["totals"]["seeds_granted"].get<double>(), worldSize() - 1.0) << "arity " << arity;
      EXPECT_LE(r.stats["totals"]["seeds_held"].get<double>(), r.stats["totals"]["seed_requests"].get<double>());
    }
}

// A seed request held by a rank that then stops (and a hold that times out) is refused, not lost:
// the job still terminates everywhere.
TEST(Tree, SeedTreeHoldsEndOnStopAndTimeout) {
  TreeConfig cfg;
  cfg.n = 200000;
  cfg.spinNs = 20000;
  cfg.stopFromRank = worldSize() - 1;
  cfg.opts.seedArity = 1;
  cfg.opts.seedHoldMax = std::chrono::microseconds(200);
  auto r = runTree(cfg);
  EXPECT_EQ(r.stopReason, 1);
  if (!r.stats.is_null()) {
    EXPECT_LT(r.processed, cfg.n);
  }
}
