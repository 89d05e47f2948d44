// The `performance` policy against its specification (docs/policies.md) on exact numbers: delay (3.2), score (3.3), the
// cached target, the self-tuning refresh wait, and auxiliary refresh → one retry → back-off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "fake_board.hpp"
#include "jackdaw/comm/policies/performance.hpp"
#include "jackdaw/comm/policies/proportional.hpp"
#include "jackdaw/comm/policies/two_choice.hpp"
#include "jackdaw/comm/policies/random.hpp"

using namespace jackdaw::comm;
using jackdaw::comm::testing::FakeBoard;
using jackdaw::comm::testing::ctxFor;

namespace {
constexpr std::uint64_t kMs = 1'000'000;  // ns
}

TEST(PerformanceDelay, Formula32OnExactNumbers) {
  FakeBoard b(3);
  PerformancePolicy p(ctxFor(0, 3, b, /*workers=*/2), {});
  EXPECT_EQ(p.scores().averageDelay(1), 0.0);  // docs/policies.md: initial 0
  p.onDelaySample(1, 10.0);                    // 0.65·ln(2.72 + 10·2) + 0.35·0
  EXPECT_NEAR(p.scores().averageDelay(1), 2.030109636004418, 1e-12);
  p.onDelaySample(1, 5.0);                     // 0.65·ln(2.72 + 5·2) + 0.35·2.0301…
  EXPECT_NEAR(p.scores().averageDelay(1), 2.3636024852443307, 1e-12);
  EXPECT_EQ(p.scores().averageDelay(2), 0.0);  // other ranks untouched
}

TEST(PerformanceScore, Formula33OnExactNumbers) {
  FakeBoard b(3);
  b.set(1, 2.5, 4);
  b.set(2, 0.0, 1000);  // rate below the floor: 0.0001·1000 = 0.1
  PerformancePolicy p(ctxFor(0, 3, b, 1), {});
  p.onDelaySample(1, 5.0);  // delay 0.65·ln(7.72) = 1.32848
  p.refresh(0);
  EXPECT_NEAR(p.scores().score(1), 2.5 * 4 - 1.3284793366238454, 1e-12);
  EXPECT_NEAR(p.scores().score(2), 0.1, 1e-12);
  EXPECT_EQ(p.target(), 1);
}

TEST(PerformanceTarget, MostQueuedWorkWithNormalDelayWins) {
  FakeBoard b(5);
  b.set(1, 1.0, 3);
  b.set(2, 1.0, 50);
  b.set(3, 1.0, 10);
  b.set(4, 1.0, 49);
  for (int w : {0, 1}) {  // same answer whoever of two thieves asks
    FakeBoard& bb = b;
    PerformancePolicy p(ctxFor(w, 5, bb, 1), {});
    for (int r = 0; r < 5; ++r) p.onDelaySample(r, 4.0);  // equal, normal delays
    p.refresh(0);
    EXPECT_EQ(p.target(), 2);
    EXPECT_EQ(p.choose(), 2);
    EXPECT_EQ(p.counters().noTarget, 0u);
  }
  // A huge delay to rank 2 (≈ 0.65·ln(1e6)·… ≫ 1) hands the target to the runner-up.
  PerformancePolicy p(ctxFor(0, 5, b, 1), {});
  for (int i = 0; i < 10; ++i) p.onDelaySample(2, 1e9);  // delay → ln(2.72+1e9) ≈ 20.7
  p.refresh(0);
  EXPECT_GT(p.scores().averageDelay(2), 1.0);
  EXPECT_EQ(p.target(), 4);
}

TEST(PerformanceTarget, NoPositiveScoreGivesRandomTargetAndCountsNoTarget) {
  FakeBoard b(4);  // every rank: queued 0 → score = 0 − delay ≤ 0 (0 is not > 0)
  PerformancePolicy p(ctxFor(1, 4, b, 1), {});
  p.onDelaySample(2, 3.0);
  std::set<int> seen;
  std::uint64_t t = 0;
  for (int i = 0; i < 200; ++i) {
    t = p.refresh(t);
    seen.insert(p.target());
    EXPECT_NE(p.target(), 1);
  }
  EXPECT_EQ(seen, (std::set<int>{0, 2, 3}));  // uniform over the other ranks reaches them all
  EXPECT_EQ(p.counters().noTarget, 200u);
  EXPECT_EQ(p.counters().refreshesAutomatic, 200u);
  EXPECT_EQ(p.waitMs(), 5.0);  // max(1 − 120, 5)
}

TEST(PerformanceWait, SelfTuningIntervalOnExactNumbers) {
  FakeBoard b(3);
  b.set(2, 1.0, 10);
  PerformancePolicy p(ctxFor(0, 3, b, 1), {});
  EXPECT_EQ(p.waitMs(), 1.0);
  std::uint64_t now = 0;
  // Found a target each time: 1 → 61 → 121 → 181 → 240 (capped) → 240; the next refresh is due
  // exactly one wait later.
  for (double expect : {61.0, 121.0, 181.0, 240.0, 240.0}) {
    const std::uint64_t next = p.refresh(now);
    EXPECT_EQ(p.waitMs(), expect);
    EXPECT_EQ(next, now + static_cast<std::uint64_t>(expect) * kMs);
    now = next;
  }
  b.set(2, 1.0, 0);  // nothing anywhere: 240 → 120 → 5 (floored) → 5
  for (double expect : {120.0, 5.0, 5.0}) {
    now = p.refresh(now);
    EXPECT_EQ(p.waitMs(), expect);
  }
  b.set(1, 1.0, 3);  // found again: 5 → 65
  p.refresh(now);
  EXPECT_EQ(p.waitMs(), 65.0);
  EXPECT_EQ(p.target(), 1);
  // The stats series holds the start and every change (the repeated 240 and 5 add nothing).
  const auto j = p.stats();
  EXPECT_EQ(j["wait_ms_series"].size(), 1u + 4u + 2u + 1u);
  EXPECT_EQ(j["wait_ms_series"][0][1].get<double>(), 1.0);
  EXPECT_EQ(j["wait_ms_series"].back()[1].get<double>(), 65.0);
  EXPECT_EQ(j["refreshes_automatic"], 9u);
  EXPECT_EQ(j["no_target_refreshes"], 3u);
}

TEST(PerformanceWait, ParametersReplaceEveryConstant) {
  FakeBoard b(2);
  b.set(1, 1.0, 1);
  PerformancePolicy::Params c;
  c.waitInitialMs = 10;
  c.waitStepUpMs = 7;
  c.waitMaxMs = 20;
  c.waitStepDownMs = 4;
  c.waitMinMs = 3;
  c.score.minRate = 2.0;  // rate 1.0 is floored to 2.0
  PerformancePolicy p(ctxFor(0, 2, b, 1), c);
  std::uint64_t next = p.refresh(0);
  EXPECT_EQ(p.waitMs(), 17.0);
  EXPECT_EQ(p.scores().score(1), 2.0);
  next = p.refresh(next);
  EXPECT_EQ(p.waitMs(), 20.0);
  b.set(1, 1.0, 0);
  for (double expect : {16.0, 12.0, 8.0, 4.0, 3.0}) {
    next = p.refresh(next);
    EXPECT_EQ(p.waitMs(), expect);
  }
}

TEST(PerformanceSteal, AuxiliaryRefreshThenOneRetryThenBackoff) {
  FakeBoard b(4);
  b.set(2, 1.0, 40);
  PerformancePolicy p(ctxFor(0, 4, b, 1), {});
  p.refresh(0);
  const double wait = p.waitMs();
  ASSERT_EQ(p.choose(), 2);
  // Rank 2 was drained by someone else; rank 3 now has work. The refusal triggers an auxiliary
  // refresh at once and an immediate retry (delay 0) of the new target.
  b.set(2, 1.0, 0);
  b.set(3, 1.0, 25);
  EXPECT_EQ(p.onOutcome({2, false, 0, 30.0}), 0);
  EXPECT_EQ(p.counters().refreshesAuxiliary, 1u);
  EXPECT_EQ(p.choose(), 3);
  // The retry fails too: back off (1 ms by default) before asking again.
  EXPECT_EQ(p.onOutcome({3, false, 0, 30.0}), 1000);
  EXPECT_EQ(p.counters().backoffs, 1u);
  EXPECT_EQ(p.counters().refreshesAuxiliary, 1u);  // no refresh on the second refusal
  EXPECT_EQ(p.waitMs(), wait);                       // auxiliary refreshes leave the wait alone
  // After the back-off a new cycle starts: the next refusal refreshes again and retries at once.
  EXPECT_EQ(p.onOutcome({3, false, 0, 30.0}), 0);
  EXPECT_EQ(p.counters().refreshesAuxiliary, 2u);
  // Success ends the cycle and hands pacing back to the comm thread.
  EXPECT_EQ(p.onOutcome({3, true, 5, 30.0}), VictimPolicy::kOwnBackoff);
  EXPECT_EQ(p.counters().tried, 4u);
  EXPECT_EQ(p.counters().succeeded, 1u);
  EXPECT_EQ(p.counters().failed, 3u);
  const auto j = p.stats();
  EXPECT_EQ(j["targets_chosen"], (std::vector<std::uint64_t>{0, 0, 1, 1}));
}

TEST(PerformanceSteal, OneRankHasNobodyToRob) {
  FakeBoard b(1);
  PerformancePolicy p(ctxFor(0, 1, b, 1), {});
  EXPECT_EQ(p.choose(), -1);
  EXPECT_EQ(p.refresh(0), VictimPolicy::kNever);
}

TEST(PolicyRegistry, PerformanceAndProportionalByName) {
  FakeBoard b(3);
  const auto c = ctxFor(0, 3, b, 1);
  const auto reg = PolicyRegistry::builtin();
  EXPECT_NE(dynamic_cast<PerformancePolicy*>(reg.make("performance", c).get()), nullptr);
  EXPECT_NE(dynamic_cast<ProportionalPolicy*>(reg.make("proportional", c).get()), nullptr);
  EXPECT_NE(dynamic_cast<RandomPolicy*>(reg.make("random", c).get()), nullptr);
  EXPECT_NE(dynamic_cast<TwoChoicePolicy*>(reg.make("twochoice", c).get()), nullptr);
  // The four of comm/policies/ among the built-in ones, each name once, each one makes its policy
  // (a policy added to the registry needs no line here).
  const auto names = reg.names();
  for (const char* n : {"random", "performance", "proportional", "twochoice"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const auto& n : names) EXPECT_NE(reg.make(n, c), nullptr) << n;
  try {
    reg.make("perf", c);
    FAIL() << "unknown name accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("performance"), std::string::npos);
  }
  auto twice = PolicyRegistry::builtin();
  EXPECT_THROW(twice.add<RandomPolicy>(), std::invalid_argument);
}

TEST(PolicyParams, TableDefaultsAreTheDissertationsAndValuesReachThePolicy) {
  std::map<std::string, double> want = {
      {"--perf-alpha", 0.65},        {"--perf-log-offset", 2.72},     {"--perf-min-rate", 0.0001},
      {"--perf-wait-initial-ms", 1}, {"--perf-wait-step-up-ms", 60},  {"--perf-wait-max-ms", 240},
      {"--perf-wait-step-down-ms", 120}, {"--perf-wait-min-ms", 5}, {"--perf-backoff-ms", 1},
      {"--prop-sticky", 1}, {"--prop-stale-guard", 1}};
  const auto reg = PolicyRegistry::builtin();
  ParamValues values;
  for (const auto& p : reg.params()) {
    EXPECT_FALSE(p.help.empty()) << p.flag;
    if (auto it = want.find(p.flag); it != want.end()) {
      EXPECT_EQ(p.defaultValue, it->second) << p.flag;
      want.erase(it);
    }
    values[p.flag] = 42.0;
  }
  EXPECT_TRUE(want.empty()) << want.size() << " flags missing, e.g. " << want.begin()->first;
  // Shared score constants are listed once though two policies use them.
  std::set<std::string> flags;
  for (const auto& p : reg.params()) EXPECT_TRUE(flags.insert(p.flag).second) << p.flag << " listed twice";
  // The values given by flag reach the policy's constants (backoff 42 ms after the failed retry).
  FakeBoard b(2);
  auto pol = reg.make("performance", ctxFor(0, 2, b, 1), values);
  EXPECT_EQ(pol->onOutcome({1, false, 0, 1.0}), 0);
  EXPECT_EQ(pol->onOutcome({1, false, 0, 1.0}), 42000);
  const auto params = detail::fromValues<ProportionalPolicy::Params>(values);
  EXPECT_TRUE(params.sticky);
  EXPECT_EQ(params.score.alpha, 42.0);
}
