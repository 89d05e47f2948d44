// Whole distributed runs of the comm layer's synthetic tree (tests/comm/tree_work.hpp) under the
// board-driven policies: every task runs exactly once and terminates, the policy's own counters
// agree with the comm thread's, and no rank ever targets itself. Runs on 1, 2 and 4 ranks.
#include <cstdio>
#include <random>
#include <string>

#include "jackdaw/comm/policies/policy_support.hpp"
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
  cfg.seed = 11;
  cfg.opts.latencyProbeInterval = std::chrono::microseconds(2000);  // plenty of (3.2) samples
  return runTree(cfg);
}

class PolicyRuns : public ::testing::TestWithParam<const char*> {};

// BoardDrivesTheChoice: the share of thieves' choices that must go to the one rank with work.
// Measured on 4 ranks (2 cores): performance and proportional 96-98 %, board-blind about 1/3.
constexpr double kBoardShare = 0.75;
// The same on the sampled board, where a record is only as fresh as its owner's last publish: in
// a CI run with other tests beside it, proportional's share there fell to 70 % (after a refusal
// the holder weighs 0 until it republishes, and its comm thread was waiting for a core, so the
// thieves chose uniformly meanwhile), while the push board's stayed at 95 %. Still well above a
// board-blind policy's 1/3.
constexpr double kSampledBoardShare = 0.6;

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

// The board drives the choice. A flat tree: the root's 600 children are leaves, so only rank 0
// (which holds the root) ever has work to give; a thief's one worker runs what it gets at once.
// Board-driven policies must send the large majority of their requests to rank 0. The negative
// control is a policy blind to the board and to history (uniform over the other ranks): it sends
// about 1/(P-1) there and must fail the same threshold, or the test could not tell them apart.
// YewPar's `random` is not blind: it retries the last rank that gave work, which finds a lone
// holder too, so its share is printed, not judged.
namespace {
struct BoardBlind final : VictimPolicy {
  static constexpr const char* name = "board_blind";
  static constexpr const char* summary = "test only: a uniformly random other rank, every time";
  explicit BoardBlind(const PolicyEnv& e) : e_(e), rng_(e.seed ^ static_cast<std::uint64_t>(e.rank)), c_(e.size) {}
  int choose() override {
    const int v = uniformOther(rng_, e_.rank, e_.size);
    ++c_.chosen[static_cast<std::size_t>(v)];
    return v;
  }
  std::int64_t onOutcome(const StealOutcome& o) override {
    c_.countOutcome(o.gotWork);
    return kOwnBackoff;
  }
  nlohmann::json stats() const override { return c_.choiceJson(); }
  PolicyEnv e_;
  std::mt19937_64 rng_;
  PolicyCounters c_;
};

struct Shares {
  double holder = 0;  // share of choices to the rank with the work
  double herd = 0;    // herding: share to the most chosen victim of the same 10 ms
};

Shares holderShare(const std::string& policy, int size, BoardScheme board = BoardScheme::All, int sample = 4) {
  auto reg = PolicyRegistry::builtin();
  reg.add<BoardBlind>();
  TreeConfig cfg;
  cfg.n = 601;
  cfg.branching = 600;
  cfg.workers = 1;
  cfg.spinNs = 1'000'000;  // 1 ms a task: ~0.2 s on 4 ranks
  cfg.policy = policy;
  cfg.policies = &reg;
  cfg.seed = 5;
  // One task per steal: the work stays on one rank, so every choice can be judged against the
  // board (half-steals would spread it to the thieves at the first grants).
  cfg.opts.stealHalf = false;
  cfg.board = board;
  cfg.boardSample = sample;
  auto r = runTree(cfg);
  expectComplete(r, size);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return {};
  double toHolder = 0, all = 0;
  for (int q = 1; q < size; ++q) {
    const auto& h = r.policy[q]["targets_chosen"];
    for (int v = 0; v < size; ++v) all += h[v].get<double>();
    toHolder += h[0].get<double>();
  }
  std::printf("%s (board %s): %.0f of %.0f choices (%.1f %%) went to the rank holding the work\n", policy.c_str(),
              boardSchemeName(board), toHolder, all, all > 0 ? 100.0 * toHolder / all : 0.0);
  if (board == BoardScheme::Sample) {
    // Nothing was pushed: every record a thief scored came from a fetch at its owner.
    const auto& t = r.stats["totals"];
    EXPECT_GT(t["board_fetches"].get<double>(), 0) << policy;
    EXPECT_GE(t["fetched_records"].get<double>(), t["board_fetches"].get<double>()) << policy;
  }
  EXPECT_GT(all, 50) << policy << ": too few steal choices to judge";
  // The herding log holds every steal request sent (none dropped at this size), and the bursts
  // hold no more requests than the victims answered.
  const auto& h = r.stats["herding"];
  EXPECT_EQ(h["choices"].get<double>(), r.stats["totals"]["steal_requests_sent"].get<double>()) << policy;
  EXPECT_EQ(h["choices_dropped"].get<double>(), 0) << policy;
  double inBursts = 0;
  for (std::size_t k = 0; k + 1 < h["bursts"].size(); ++k) inBursts += static_cast<double>(k + 1) * h["bursts"][k].get<double>();
  EXPECT_LE(inBursts, r.stats["totals"]["requests_answered"].get<double>()) << policy;
  std::printf("%s: herding share %.2f over %d bins; bursts %s\n", policy.c_str(), h["share_to_most_chosen"].get<double>(),
              h["bins_10ms"].get<int>(), h["bursts"].dump().c_str());
  return {all > 0 ? toHolder / all : 0.0, h["share_to_most_chosen"].get<double>()};
}
}  // namespace

TEST(BoardDrivesTheChoice, BoardPoliciesFindTheOneRankWithWork) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 3) GTEST_SKIP() << "needs 3 or more ranks: with 2, rank 0 is every thief's only choice";
  const Shares blind = holderShare("board_blind", size);
  const Shares random = holderShare("random", size);
  const Shares performance = holderShare("performance", size);
  const Shares proportional = holderShare("proportional", size);
  if (rank != 0) return;
  (void)random;
  EXPECT_LT(blind.holder, kBoardShare) << "a board-blind policy reached the threshold: the test cannot tell policies apart";
  EXPECT_GE(performance.holder, kBoardShare) << "performance did not follow the board";
  EXPECT_GE(proportional.holder, kBoardShare) << "proportional did not follow the board";
  // With one rank holding the work every board-driven thief heads for it: the herding measure
  // must see that, and see less of it for choices blind to the board.
  EXPECT_GT(performance.herd, blind.herd);
  EXPECT_GT(proportional.herd, blind.herd);
}

// The same choice under the sampled board (records read at their owners when a thief chooses,
// nothing pushed), with the sample covering every other rank: the policies must find the one
// rank with work as they do on the push board.
TEST(BoardDrivesTheChoice, AlsoWhenRecordsAreReadAtTheirOwners) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 3) GTEST_SKIP() << "needs 3 or more ranks: with 2, rank 0 is every thief's only choice";
  const Shares performance = holderShare("performance", size, BoardScheme::Sample, size - 1);
  const Shares proportional = holderShare("proportional", size, BoardScheme::Sample, size - 1);
  if (rank != 0) return;
  EXPECT_GE(performance.holder, kSampledBoardShare) << "performance did not follow the sampled board";
  EXPECT_GE(proportional.holder, kSampledBoardShare) << "proportional did not follow the sampled board";
}

// Every policy completes the tree exactly once on the sampled board with a sample smaller than
// the other ranks (on 4 ranks: 2 of 3).
TEST(SampledBoard, EveryPolicyCompletes) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (const char* policy : {"random", "performance", "proportional"}) {
    TreeConfig cfg;
    cfg.n = 3000;
    cfg.branching = 3;
    cfg.workers = 2;
    cfg.spinNs = 50000;
    cfg.policy = policy;
    cfg.board = BoardScheme::Sample;
    cfg.boardSample = 2;
    cfg.seed = 17;
    expectComplete(runTree(cfg), size);
  }
}
