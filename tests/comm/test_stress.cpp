// Stress: many short distributed runs inside one launch, with random delays injected into every
// comm thread. Never a hang (CTest TIMEOUT), never a wrong count.
#include <cstdlib>

#include "run_tree.hpp"

using namespace jackdaw::comm;
using namespace jackdaw::comm::testing;

TEST(Stress, ManyShortRunsWithRandomCommDelays) {
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* env = std::getenv("JACKDAW_STRESS_RUNS");
  const int runs = env ? std::atoi(env) : 200;
  double moved = 0, waves = 0;
  for (int i = 0; i < runs; ++i) {
    TreeConfig cfg;
    cfg.n = 150 + 37 * (i % 11);
    cfg.branching = 2 + i % 3;
    cfg.workers = 1 + i % 2;
    cfg.spinNs = (i % 4) * 20000;  // some runs long enough for peers to steal
    cfg.seed = 1000 + i;
    cfg.stallMaxUs = 300;
    cfg.opts.stealHalf = i % 2 == 1;
    cfg.opts.maxStealsInFlight = 1 + i % 3;
    cfg.opts.waveInterval = std::chrono::microseconds(50 + 50 * (i % 3));
    auto r = runTree(cfg);
    expectComplete(r, size);
    if (rank == 0) {
      moved += r.stats["totals"]["tasks_received"].get<double>();
      waves += r.stats["totals"]["termination_waves"].get<double>();
    }
    // Decide together, or a rank that stops early would leave the others waiting.
    int bad = ::testing::Test::HasFailure() ? 1 : 0, anyBad = 0;
    MPI_Allreduce(&bad, &anyBad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (anyBad) {
      ADD_FAILURE() << "run " << i << " failed (on rank 0 if not here)";
      break;
    }
  }
  if (rank == 0) {
    std::printf("stress: %d runs, %.0f tasks moved between ranks, %.0f termination waves (summed over ranks)\n",
                runs, moved, waves);
    if (size > 1) {
      EXPECT_GT(moved, 0) << "no run moved any work: the stress test tested nothing";
    }
  }
}
