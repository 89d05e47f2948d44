// BitSet against a std::set<std::size_t> reference, for several widths.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <type_traits>
#include <vector>

#include "jackdaw/core/bitset.hpp"

using jackdaw::BitSet;

namespace {

template <std::size_t W>
std::vector<std::size_t> bitsOf(const BitSet<W>& s) {
  return {s.begin(), s.end()};
}

template <std::size_t W>
BitSet<W> fromSet(const std::set<std::size_t>& r) {
  BitSet<W> s;
  for (auto i : r) s.set(i);
  return s;
}

template <std::size_t W>
std::set<std::size_t> randomSet(std::mt19937_64& rng, double density) {
  std::bernoulli_distribution coin(density);
  std::set<std::size_t> r;
  for (std::size_t i = 0; i < BitSet<W>::capacity; ++i)
    if (coin(rng)) r.insert(i);
  return r;
}

template <class T>
class BitSetWidths : public ::testing::Test {};
using Widths = ::testing::Types<std::integral_constant<std::size_t, 1>, std::integral_constant<std::size_t, 2>,
                                std::integral_constant<std::size_t, 3>, std::integral_constant<std::size_t, 8>>;
TYPED_TEST_SUITE(BitSetWidths, Widths);

}  // namespace

TEST(BitSet, StartsEmptyAndIsTriviallyCopyable) {
  BitSet<4> s;
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.count(), 0u);
  EXPECT_EQ(s.first(), BitSet<4>::npos);
  EXPECT_EQ(s.begin(), s.end());
  static_assert(std::is_trivially_copyable_v<BitSet<64>>);
  static_assert(sizeof(BitSet<3>) == 3 * sizeof(std::uint64_t));
}

TEST(BitSet, SetResetTestAtWordEdges) {
  BitSet<2> s;
  for (std::size_t i : {0u, 63u, 64u, 127u}) {
    EXPECT_FALSE(s.test(i));
    s.set(i);
    EXPECT_TRUE(s.test(i));
  }
  EXPECT_EQ(s.count(), 4u);
  EXPECT_EQ(bitsOf(s), (std::vector<std::size_t>{0, 63, 64, 127}));
  s.set(63);  // idempotent
  EXPECT_EQ(s.count(), 4u);
  s.reset(63);
  s.reset(63);
  EXPECT_FALSE(s.test(63));
  EXPECT_EQ(s.count(), 3u);
  EXPECT_EQ(s.first(), 0u);
  s.reset(0);
  EXPECT_EQ(s.first(), 64u);
  s.clear();
  EXPECT_TRUE(s.empty());
}

TEST(BitSet, SetFirstN) {
  for (std::size_t n : {0u, 1u, 63u, 64u, 65u, 100u, 191u, 192u}) {
    BitSet<3> s;
    s.setFirst(n);
    EXPECT_EQ(s.count(), n) << n;
    EXPECT_EQ(s.test(n == 0 ? 0 : n - 1), n != 0) << n;
    if (n < BitSet<3>::capacity) {
      EXPECT_FALSE(s.test(n)) << n;
    }
  }
}

TYPED_TEST(BitSetWidths, MatchesReferenceSet) {
  constexpr std::size_t W = TypeParam::value;
  std::mt19937_64 rng(12345 + W);
  for (double density : {0.0, 0.03, 0.5, 0.97, 1.0}) {
    for (int rep = 0; rep < 20; ++rep) {
      const auto ra = randomSet<W>(rng, density), rb = randomSet<W>(rng, 0.5);
      const auto a = fromSet<W>(ra), b = fromSet<W>(rb);
      EXPECT_EQ(a.count(), ra.size());
      EXPECT_EQ(a.empty(), ra.empty());
      EXPECT_EQ(bitsOf(a), std::vector<std::size_t>(ra.begin(), ra.end()));
      EXPECT_EQ(a.first(), ra.empty() ? BitSet<W>::npos : *ra.begin());

      std::set<std::size_t> rand_, rdiff, ror;
      for (auto i : ra) (rb.count(i) ? rand_ : rdiff).insert(i);
      ror = ra;
      ror.insert(rb.begin(), rb.end());
      auto x = a;
      x &= b;
      EXPECT_EQ(x, fromSet<W>(rand_));
      EXPECT_EQ(a & b, fromSet<W>(rand_));
      auto y = a;
      y.andNot(b);
      EXPECT_EQ(y, fromSet<W>(rdiff));
      EXPECT_EQ(a | b, fromSet<W>(ror));

      std::vector<std::size_t> viaForEach;
      a.forEach([&](std::size_t i) { viaForEach.push_back(i); });
      EXPECT_EQ(viaForEach, bitsOf(a));
      // next(i): lowest member >= i.
      for (std::size_t i = 0; i <= BitSet<W>::capacity; i += 7) {
        auto it = ra.lower_bound(i);
        EXPECT_EQ(a.next(i), it == ra.end() ? BitSet<W>::npos : *it) << i;
      }
    }
  }
}

TEST(BitSet, AndNotFromLeavesLowerWordsAlone) {
  BitSet<3> s, mask;
  s.setFirst(192);
  mask.setFirst(192);
  s.andNotFrom(mask, 1);
  EXPECT_EQ(s.count(), 64u);
  EXPECT_TRUE(s.test(0));
  EXPECT_FALSE(s.test(64));
}

TEST(BitSet, EqualityComparesContent) {
  BitSet<2> a, b;
  EXPECT_EQ(a, b);
  a.set(100);
  EXPECT_NE(a, b);
  b.set(100);
  EXPECT_EQ(a, b);
  a.reset(100);
  EXPECT_NE(a, b);
}

TEST(BitSet, SerializeRoundTripsThroughAnyIntegerArchive) {
  struct Out {
    std::vector<std::uint64_t> v;
    void operator()(std::uint64_t& w) { v.push_back(w); }
  } out;
  BitSet<2> a;
  a.set(5);
  a.set(70);
  a.serialize(out);
  ASSERT_EQ(out.v.size(), 2u);
  struct In {
    std::vector<std::uint64_t> v;
    std::size_t i = 0;
    void operator()(std::uint64_t& w) { w = v[i++]; }
  } in{out.v};
  BitSet<2> b;
  b.serialize(in);
  EXPECT_EQ(a, b);
}
