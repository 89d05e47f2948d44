// Whole distributed runs of the comm layer's synthetic tree (tests/comm/tree_work.hpp) under the
// board-driven policies: every task runs exactly once and terminates, the policy's own counters
// agree with the comm thread's, and no rank ever targets itself. Runs on 1, 2 and 4 ranks.
#include "run_tree.hpp"

using namespace jackdaw::comm;
using namespace jackdaw::comm::testing;

namespace {

TreeRun runWithPolicy(const std::string& name, std::uint64_t n, unsigned spinNs) {
  TreeConfig cfg;
  cfg.n = n;
  cfg.branching = 3;
  cfg.workers = 2;
  cfg.spinNs = spinNs;
  cfg.policy = name;
  cfg.opts.seed = 11;
  cfg.opts.latencyProbeInterval = std::chrono::microseconds(2000);  // plenty of (3.2) samples
  return runTree(cfg);
}

class PolicyRuns : public ::testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(PolicyRuns, CompleteAndCountersAgree) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto r = runWithPolicy(GetParam(), 3000, 100000);  // ~0.3 s of work, all on rank 0 at first
  expectComplete(r, size);
  if (rank != 0) return;
  ASSERT_EQ(r.policy.size(), static_cast<std::size_t>(size));
  nlohmann::json pt = nlohmann::json::object();
  for (const auto& p : r.policy)
    for (const auto& [k, v] : p.items())
      if (v.is_number_unsigned()) pt[k] = pt.value(k, 0.0) + v.get<double>();
  const auto& ct = r.stats["totals"];
  // Outcomes reach the policy except for refusals during the final drain.
  EXPECT_EQ(pt.value("steals_succeeded", 0.0), ct["steals_granted"].get<double>());
  EXPECT_LE(pt.value("steals_failed", 0.0), ct["steals_refused"].get<double>());
  EXPECT_EQ(pt.value("steals_tried", 0.0), pt.value("steals_succeeded", 0.0) + pt.value("steals_failed", 0.0));
  for (int q = 0; q < size; ++q) {
    const auto& h = r.policy[q]["targets_chosen"];
    ASSERT_EQ(h.size(), static_cast<std::size_t>(size));
    EXPECT_EQ(h[q], 0u) << "rank " << q << " targeted itself";
  }
  if (size > 1) {
    EXPECT_GT(ct["tasks_received"].get<double>(), 0);
    if (std::string(GetParam()) == "performance") {
      EXPECT_GT(pt["refreshes_automatic"].get<double>(), 0);
      EXPECT_LE(pt["backoffs"].get<double>(), pt["refreshes_auxiliary"].get<double>());
      EXPECT_GE(r.policy[0]["wait_ms_series"].size(), 1u);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, PolicyRuns, ::testing::Values("random", "performance", "proportional"));
