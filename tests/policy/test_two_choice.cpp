// The `twochoice` policy: the better-scored of d random candidates, never itself, uniform when no
// candidate scores above 0, sticky on the last giver, a refusing rank ignored until it republishes,
// the sampled board's own candidates when it samples — and thieves spread by the known law of d
// random draws rather than all meeting at the arg-max.
#include <gtest/gtest.h>

#include <vector>

#include "fake_board.hpp"
#include "jackdaw/comm/policies/two_choice.hpp"

using namespace jackdaw::comm;
using jackdaw::comm::testing::FakeBoard;
using jackdaw::comm::testing::ctxFor;

TEST(TwoChoice, DrawingEveryRankIsTheArgMax) {
  FakeBoard b(6);
  b.set(1, 1.0, 10);
  b.set(2, 5.0, 99);  // the thief itself: never
  b.set(4, 2.0, 30);  // score 60: the best
  b.set(5, 1.0, 50);
  TwoChoicePolicy::Params all;
  all.choices = 5;  // every other rank
  TwoChoicePolicy p(ctxFor(2, 6, b, 1, 3), all);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(p.choose(), 4);
}

// Ten ranks: six idle thieves (0–5) and victims 6–9 with 40, 30, 20, 10 tasks. A thief draws 2 of
// its 9 peers (36 pairs): victim 6 wins the 8 pairs it is in, 7 the 7 pairs with it but not 6, …,
// 9 the 5 pairs with an idle rank; the 10 idle-only pairs fall back to uniform over the 9.
TEST(TwoChoice, SpreadsThievesByTheLawOfTwoDraws) {
  constexpr int kSize = 10, kThieves = 6, kRounds = 20000;
  FakeBoard b(kSize);
  b.set(6, 1.0, 40);
  b.set(7, 1.0, 30);
  b.set(8, 1.0, 20);
  b.set(9, 1.0, 10);
  TwoChoicePolicy::Params noSticky;
  noSticky.sticky = false;
  std::vector<std::uint64_t> counts(kSize, 0);
  std::uint64_t fallbacks = 0;
  for (int t = 0; t < kThieves; ++t) {
    TwoChoicePolicy p(ctxFor(t, kSize, b, 1, 500 + t), noSticky);
    for (int i = 0; i < kRounds; ++i) {
      const int v = p.choose();
      ASSERT_NE(v, t);
      ++counts[static_cast<std::size_t>(v)];
    }
    fallbacks += p.stats()["uniform_fallbacks"].get<std::uint64_t>();
  }
  const double n = kThieves * kRounds, fallback = 10.0 / 36.0 / 9.0;
  const double want[] = {8.0 / 36, 7.0 / 36, 6.0 / 36, 5.0 / 36};
  for (int v = 6; v < kSize; ++v)
    EXPECT_NEAR(static_cast<double>(counts[static_cast<std::size_t>(v)]) / n, want[v - 6] + fallback, 0.01) << "victim " << v;
  EXPECT_NEAR(static_cast<double>(fallbacks) / n, 10.0 / 36.0, 0.01);
}

TEST(TwoChoice, UniformWhenNobodyHasWork) {
  FakeBoard b(5);
  TwoChoicePolicy p(ctxFor(3, 5, b, 1, 99), {});
  std::vector<int> counts(5, 0);
  for (int i = 0; i < 8000; ++i) ++counts[static_cast<std::size_t>(p.choose())];
  EXPECT_EQ(counts[3], 0);
  for (int r : {0, 1, 2, 4}) EXPECT_NEAR(counts[static_cast<std::size_t>(r)], 2000, 200) << r;
  EXPECT_EQ(p.stats()["uniform_fallbacks"], 8000u);
}

TEST(TwoChoice, StickyOnLastGiverAndStaleGuard) {
  FakeBoard b(3);
  b.set(1, 1.0, 50);
  b.set(2, 1.0, 5);
  TwoChoicePolicy p(ctxFor(0, 3, b, 1), {});  // d = 2 of 2 peers: always both
  EXPECT_EQ(p.choose(), 1);
  p.onOutcome({2, true, 1, 10.0});  // rank 2 gave work: asked first, whatever the board says
  for (int i = 0; i < 10; ++i) EXPECT_EQ(p.choose(), 2);
  p.onOutcome({2, false, 0, 10.0});  // … until it refuses
  EXPECT_EQ(p.remembered(), -1);
  b.set(2, 1.0, 5);  // and republishes
  p.onOutcome({1, false, 0, 10.0});  // rank 1 refused on the count that still says 50: ignored
  for (int i = 0; i < 10; ++i) EXPECT_EQ(p.choose(), 2);
  b.set(1, 1.0, 50);  // it republished: trusted again
  EXPECT_EQ(p.choose(), 1);
}

TEST(TwoChoice, TheSampledBoardDrawsTheCandidates) {
  FakeBoard b(5);
  b.sample(2);  // candidates in rotation: {1,2}, {3,4}, {1,2}, …  (thief 0)
  b.set(1, 1.0, 3);
  b.set(2, 1.0, 7);
  b.set(3, 1.0, 9);
  b.set(4, 1.0, 1);
  TwoChoicePolicy::Params noSticky;
  noSticky.sticky = false;
  noSticky.choices = 4;  // ignored: the board samples
  TwoChoicePolicy p(ctxFor(0, 5, b, 1), noSticky);
  EXPECT_EQ(p.choose(), 2);
  EXPECT_EQ(p.choose(), 3);
  EXPECT_EQ(p.choose(), 2);
  EXPECT_EQ(b.refreshed.size(), 6u);  // 2 records read at their owners per choice
}

TEST(TwoChoice, OneRankHasNobodyToRob) {
  FakeBoard b(1);
  TwoChoicePolicy p(ctxFor(0, 1, b, 1), {});
  EXPECT_EQ(p.choose(), -1);
}
