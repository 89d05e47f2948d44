// SamplingBoardView: the candidates of the runtime's board view and of jackdaw-sim's, written once.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "jackdaw/comm/policies/board_view.hpp"

using namespace jackdaw::comm;

namespace {
// A sampling view with no records: it only remembers which ranks it was asked to read at the owners.
class Recording final : public SamplingBoardView {
 public:
  Recording(bool sampling, int sample, std::uint64_t seed, int rank)
      : SamplingBoardView(sample, seed, rank), sampling_(sampling) {}
  std::optional<RankRecord> read(int) const override { return std::nullopt; }
  bool samples() const override { return sampling_; }
  void refresh(std::span<const int> ranks) override { refreshed.insert(refreshed.end(), ranks.begin(), ranks.end()); }
  std::vector<int> refreshed;

 private:
  bool sampling_;
};
}  // namespace

TEST(SamplingBoardView, ThePushBoardOffersEveryOtherRankAndReadsNothing) {
  Recording v(false, 2, 7, 3);
  const Candidates c = v.candidates(3, 6);
  EXPECT_EQ(c.ranks, (std::vector<int>{0, 1, 2, 4, 5}));
  EXPECT_FALSE(c.fresh);
  EXPECT_TRUE(v.refreshed.empty());
}

TEST(SamplingBoardView, ASampleIsKDistinctOthersReadAtTheirOwners) {
  Recording v(true, 3, 11, 2);
  std::set<int> seen;
  for (int draw = 0; draw < 300; ++draw) {
    v.refreshed.clear();
    const Candidates c = v.candidates(2, 8);
    ASSERT_EQ(c.ranks.size(), 3u);
    EXPECT_TRUE(c.fresh);
    EXPECT_EQ(v.refreshed, c.ranks);  // exactly the sample is read at the owners
    EXPECT_EQ(std::set<int>(c.ranks.begin(), c.ranks.end()).size(), 3u);
    EXPECT_EQ(std::count(c.ranks.begin(), c.ranks.end(), 2), 0);
    seen.insert(c.ranks.begin(), c.ranks.end());
  }
  EXPECT_EQ(seen, (std::set<int>{0, 1, 3, 4, 5, 6, 7}));  // every other rank is drawn sometimes
  // A sample larger than the others is all of them.
  Recording all(true, 10, 11, 0);
  EXPECT_EQ(all.candidates(0, 4).ranks.size(), 3u);
}

// One --seed, one rank: the same draws in every view built from it (the runtime's and the
// simulator's are both this class), the stream boardSampleSeed names; another rank draws otherwise.
TEST(SamplingBoardView, OneSeedAndRankDrawOneSequence) {
  Recording a(true, 2, 42, 5), b(true, 2, 42, 5), other(true, 2, 42, 6);
  std::mt19937_64 stream(boardSampleSeed(42, 5));
  int differs = 0;
  for (int draw = 0; draw < 50; ++draw) {
    const auto ca = a.candidates(5, 16).ranks;
    EXPECT_EQ(ca, b.candidates(5, 16).ranks);
    EXPECT_EQ(ca, sampleOtherRanks(5, 16, 2, stream).ranks);
    differs += ca != other.candidates(5, 16).ranks;
  }
  EXPECT_GT(differs, 25);
  EXPECT_NE(boardSampleSeed(42, 0), boardSampleSeed(42, 1));
  EXPECT_NE(boardSampleSeed(42, 0), boardSampleSeed(43, 0));
}
