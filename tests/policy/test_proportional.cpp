// The `proportional` policy: victims drawn ∝ positive (3.3) score, never itself, uniform when
// nothing has weight, sticky on the last giver, a refusing rank ignored until it republishes —
// and, unlike `performance`, thieves looking at the same board spread over the victims.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "fake_board.hpp"
#include "jackdaw/comm/policies/performance.hpp"
#include "jackdaw/comm/policies/proportional.hpp"

using namespace jackdaw::comm;
using jackdaw::comm::testing::FakeBoard;
using jackdaw::comm::testing::ctxFor;

namespace {

// Pearson's statistic of observed counts against expected probabilities (categories with p > 0).
double chiSquare(const std::vector<std::uint64_t>& counts, const std::vector<double>& p, std::uint64_t n) {
  double x2 = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0.0) continue;
    const double e = p[i] * static_cast<double>(n);
    x2 += (static_cast<double>(counts[i]) - e) * (static_cast<double>(counts[i]) - e) / e;
  }
  return x2;
}

}  // namespace

TEST(Proportional, SamplesInProportionToScoreAndNeverItself) {
  FakeBoard b(6);
  b.set(0, 1.0, 10);  // weight 10
  b.set(1, 2.0, 10);  // 20
  b.set(2, 5.0, 99);  // the thief itself: never
  b.set(3, 1.0, 0);   // 0: never
  b.set(4, 1.0, 30);  // 30
  b.set(5, 0.5, 80);  // 40
  ProportionalPolicy p(ctxFor(2, 6, b, 1, 12345), {});
  const std::uint64_t n = 100000;
  std::vector<std::uint64_t> counts(6, 0);
  for (std::uint64_t i = 0; i < n; ++i) ++counts[static_cast<std::size_t>(p.choose())];
  EXPECT_EQ(counts[2], 0u);
  EXPECT_EQ(counts[3], 0u);
  EXPECT_DOUBLE_EQ(p.weight(5), 40.0);
  // 4 categories → 3 degrees of freedom; 16.27 is the 0.1 % critical value.
  EXPECT_LT(chiSquare(counts, {0.1, 0.2, 0.0, 0.0, 0.3, 0.4}, n), 16.27);
  EXPECT_EQ(p.counters().noTarget, 0u);
}

TEST(Proportional, DelaysLowerAVictimsShare) {
  FakeBoard b(3);
  b.set(1, 1.0, 10);
  b.set(2, 1.0, 10);
  ProportionalPolicy p(ctxFor(0, 3, b, 1), {});
  p.onDelaySample(2, 1e9);  // 0.65·ln(2.72 + 1e9) = 13.47… > 10: rank 2's score is negative
  std::vector<std::uint64_t> counts(3, 0);
  for (int i = 0; i < 1000; ++i) ++counts[static_cast<std::size_t>(p.choose())];
  EXPECT_EQ(counts[1], 1000u);
}

TEST(Proportional, UniformFallbackWhenNoWeight) {
  FakeBoard b(5);  // queued 0 everywhere
  ProportionalPolicy p(ctxFor(3, 5, b, 1, 99), {});
  const std::uint64_t n = 40000;
  std::vector<std::uint64_t> counts(5, 0);
  for (std::uint64_t i = 0; i < n; ++i) ++counts[static_cast<std::size_t>(p.choose())];
  EXPECT_EQ(counts[3], 0u);
  EXPECT_LT(chiSquare(counts, {0.25, 0.25, 0.25, 0.0, 0.25}, n), 16.27);
  EXPECT_EQ(p.counters().noTarget, n);
  EXPECT_EQ(p.stats()["uniform_fallbacks"], n);
}

TEST(Proportional, StickyOnLastGiverForgetsOnRefusal) {
  FakeBoard b(4);
  b.set(1, 1.0, 100);
  b.set(3, 1.0, 1);
  ProportionalPolicy p(ctxFor(0, 4, b, 1), {});
  p.onOutcome({3, true, 1, 10.0});  // rank 3 gave work: ask it first, whatever the board says
  for (int i = 0; i < 20; ++i) EXPECT_EQ(p.choose(), 3);
  p.onOutcome({3, false, 0, 10.0});
  EXPECT_EQ(p.remembered(), -1);
  EXPECT_EQ(p.stats()["sticky_choices"], 20u);
}

TEST(Proportional, StaleGuardIgnoresARefusingRankUntilItRepublishes) {
  FakeBoard b(3);
  b.set(1, 1.0, 50);
  b.set(2, 1.0, 50);
  ProportionalPolicy p(ctxFor(0, 3, b, 1), {});
  p.onOutcome({1, false, 0, 10.0});  // rank 1 refused while the board still says 50
  for (int i = 0; i < 200; ++i) EXPECT_EQ(p.choose(), 2);
  EXPECT_EQ(p.weight(1), 0.0);
  b.set(1, 1.0, 50);  // rank 1 republished (same count, new record): trusted again
  std::vector<int> counts(3, 0);
  for (int i = 0; i < 2000; ++i) ++counts[static_cast<std::size_t>(p.choose())];
  EXPECT_GT(counts[1], 800);
  EXPECT_GT(counts[2], 800);
  // With the guard off the refusal changes nothing.
  ProportionalPolicy::Params unguarded;
  unguarded.staleGuard = false;
  ProportionalPolicy q(ctxFor(0, 3, b, 1), unguarded);
  q.onOutcome({1, false, 0, 10.0});
  q.choose();  // weights come from the latest board read
  EXPECT_EQ(q.weight(1), 50.0);
}

TEST(Proportional, OneRankHasNobodyToRob) {
  FakeBoard b(1);
  ProportionalPolicy p(ctxFor(0, 1, b, 1), {});
  EXPECT_EQ(p.choose(), -1);
}

// Ten ranks: six idle thieves (0–5) and four loaded victims. `performance` sends every thief to
// the arg-max (herding); `proportional` spreads them in proportion to the victims' work.
TEST(Proportional, SpreadsThievesWherePerformanceHerds) {
  constexpr int kSize = 10, kThieves = 6, kRounds = 3000;
  FakeBoard b(kSize);
  const std::map<int, std::uint64_t> queued = {{6, 40}, {7, 30}, {8, 20}, {9, 10}};
  for (auto [r, q] : queued) b.set(r, 1.0, q);

  std::map<int, int> perfChoices;
  for (int t = 0; t < kThieves; ++t) {
    PerformancePolicy p(ctxFor(t, kSize, b, 1, 1000 + t), {});
    p.refresh(0);
    ++perfChoices[p.choose()];
  }
  EXPECT_EQ(perfChoices, (std::map<int, int>{{6, kThieves}}));  // all on one victim

  std::vector<std::uint64_t> counts(kSize, 0);
  for (int t = 0; t < kThieves; ++t) {
    ProportionalPolicy p(ctxFor(t, kSize, b, 1, 1000 + t), {});
    for (int i = 0; i < kRounds; ++i) ++counts[static_cast<std::size_t>(p.choose())];
  }
  const double n = kThieves * kRounds;
  for (int r = 0; r < kSize; ++r) {
    const double want = queued.count(r) ? static_cast<double>(queued.at(r)) / 100.0 : 0.0;
    EXPECT_NEAR(static_cast<double>(counts[static_cast<std::size_t>(r)]) / n, want, 0.02) << "victim " << r;
  }
}
