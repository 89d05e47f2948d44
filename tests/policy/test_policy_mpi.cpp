// Whole distributed runs of the comm layer's synthetic tree (tests/comm/tree_work.hpp) under the
// board-driven policies: every task runs exactly once and terminates, the policy's own counters
// agree with the comm thread's, and no rank ever targets itself. Runs on 1, 2 and 4 ranks.
#include "jackdaw/comm/policies/policy_stats.hpp"
#include "run_tree.hpp"

using namespace jackdaw::comm;
using namespace jackdaw::comm::testing;

namespace {

struct PolicyRun {
  TreeRun tree;
  nlohmann::json policyStats;  // rank 0: gatherPolicyStats
};

PolicyRun runWithPolicy(const std::string& name, std::uint64_t n, unsigned spinNs) {
  MPI_Comm world = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  PolicyRun out;
  out.tree.n = n;
  LoadBoard board(world, BoundSense::Maximise);
  PeerDelays delays(size);
  CommOptions opts;
  opts.latencyProbeInterval = std::chrono::microseconds(2000);  // plenty of (3.2) samples
  PolicyContext ctx{rank, size, 11, 2, &board, &delays};
  auto policy = makePolicy(name, ctx);
  TreeWork work(n, 3, 2, spinNs);
  {
    CommThread comm(world, board, work, *policy, delays, opts);
    work.setOnIdle([&comm] { comm.wake(); });
    if (rank == 0) work.injectRoot();
    comm.start();
    comm.waitTermination();
    work.shutdown();
    work.setOnIdle(nullptr);
    out.tree.stats = gatherStats(world, comm.stats());
    out.policyStats = gatherPolicyStats(world, *policy);
  }
  std::vector<std::uint32_t> mine(n);
  for (std::uint64_t i = 0; i < n; ++i) mine[i] = work.hits()[i].load();
  out.tree.hits.resize(rank == 0 ? n : 0);
  MPI_Reduce(mine.data(), out.tree.hits.data(), static_cast<int>(n), MPI_UINT32_T, MPI_SUM, 0, world);
  std::uint64_t local[2] = {work.idSum(), work.processed()}, total[2] = {0, 0};
  MPI_Reduce(local, total, 2, MPI_UINT64_T, MPI_SUM, 0, world);
  out.tree.idSum = total[0];
  out.tree.processed = total[1];
  return out;
}

class PolicyRuns : public ::testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(PolicyRuns, CompleteAndCountersAgree) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto r = runWithPolicy(GetParam(), 3000, 100000);  // ~0.3 s of work, all on rank 0 at first
  expectComplete(r.tree, size);
  if (rank != 0) return;
  const auto& ps = r.policyStats;
  ASSERT_EQ(ps["policy"], GetParam());
  ASSERT_EQ(ps["ranks"].size(), static_cast<std::size_t>(size));
  const auto& pt = ps["totals"];
  const auto& ct = r.tree.stats["totals"];
  // Outcomes reach the policy except for refusals during the final drain.
  EXPECT_EQ(pt.value("steals_succeeded", 0.0), ct["steals_granted"].get<double>());
  EXPECT_LE(pt.value("steals_failed", 0.0), ct["steals_refused"].get<double>());
  EXPECT_EQ(pt.value("steals_tried", 0.0), pt.value("steals_succeeded", 0.0) + pt.value("steals_failed", 0.0));
  for (int q = 0; q < size; ++q) {
    const auto& h = ps["ranks"][q]["targets_chosen"];
    ASSERT_EQ(h.size(), static_cast<std::size_t>(size));
    EXPECT_EQ(h[q], 0u) << "rank " << q << " targeted itself";
  }
  if (size > 1) {
    EXPECT_GT(ct["tasks_received"].get<double>(), 0);
    if (std::string(GetParam()) == "performance") {
      EXPECT_GT(pt["refreshes_automatic"].get<double>(), 0);
      EXPECT_LE(pt["backoffs"].get<double>(), pt["refreshes_auxiliary"].get<double>());
      EXPECT_GE(ps["ranks"][0]["wait_ms_series"].size(), 1u);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, PolicyRuns, ::testing::Values("random", "performance", "proportional"));
