#include <gtest/gtest.h>

#include "jackdaw/nqueens/model.hpp"
#include "jackdaw/skeletons/seq.hpp"

#include <vector>

using namespace jackdaw;

namespace {
std::uint64_t solve(int n, SearchStats* stats = nullptr) {
  const nqueens::Board b{n};
  auto r = seq::search<nqueens::Model, Enumeration<nqueens::CountSolutions>>(b, nqueens::makeRoot(b), {});
  EXPECT_TRUE(r.complete());
  if (stats) *stats = r.stats;
  return r.enumerator.get();
}
}  // namespace

TEST(NQueens, KnownCountsUpTo14) {
  // OEIS A000170, n = 1..14.
  const std::uint64_t known[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};
  for (int n = 1; n <= 14; ++n) EXPECT_EQ(solve(n), known[n - 1]) << "n = " << n;
}

namespace {
struct RowOf {
  int operator()(const nqueens::Node& q) const { return 8 - q.rowsLeft; }
};
}  // namespace

TEST(NQueens, EightQueensTreeProfile) {
  // Knuth (TAOCP 7.2.2): the 8-queens backtrack tree has 2057 nodes, by level
  // 1, 8, 42, 140, 344, 568, 550, 312, 92.
  const nqueens::Board b{8};
  auto r = seq::search<nqueens::Model, Enumeration<CountByDepth<RowOf>>>(b, nqueens::makeRoot(b), {});
  const std::vector<std::uint64_t> profile = {1, 8, 42, 140, 344, 568, 550, 312, 92};
  EXPECT_EQ(r.enumerator.get(), profile);
  EXPECT_EQ(r.stats.nodes, 2057u);
  EXPECT_EQ(r.stats.maxDepth, 8u);
}

TEST(NQueens, LargestBoardHasNoOverflow) {
  // n = 32 uses every mask bit; explore two levels only (depth limit) and count by hand.
  const nqueens::Board b{32};
  SearchParams<long long> p;
  p.maxDepth = 2;
  auto r = seq::search<nqueens::Model, Enumeration<CountNodes>>(b, nqueens::makeRoot(b), p);
  // Level 1: 32 queens. Level 2: for a queen in column c, 32 - 1 - (attacked diagonals 1 or 2).
  // Corners (c = 0, 31) lose 2 squares, the other 30 columns lose 3: 2*30 + 30*29 = 930.
  EXPECT_EQ(r.enumerator.get(), 1u + 32u + 930u);
}
