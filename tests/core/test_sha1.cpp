// SHA-1 (core/sha1.hpp) on FIPS 180's test messages and others, in one piece and in pieces, with
// the kernel this CPU uses and with the portable one: UTS's trees and the checkpoints' file names
// depend on every bit of it.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "jackdaw/core/sha1.hpp"

namespace {

std::string hex(const unsigned char* d) {
  static const char* x = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 20; ++i) s += x[d[i] >> 4], s += x[d[i] & 15];
  return s;
}

std::string oneShot(const std::string& m) {
  unsigned char d[20];
  jackdaw::Sha1::digest(m.data(), m.size(), d);
  return hex(d);
}

// In pieces of `piece` bytes through update().
std::string streamed(const std::string& m, std::size_t piece) {
  jackdaw::Sha1 h;
  for (std::size_t i = 0; i < m.size(); i += piece) h.update(m.data() + i, std::min(piece, m.size() - i));
  return hex(h.final().data());
}

// The portable kernel alone, padding done here as FIPS 180 says.
std::string portable(const std::string& m) {
  std::string b = m + '\x80';
  while (b.size() % 64 != 56) b += '\0';
  const std::uint64_t bits = std::uint64_t{m.size()} * 8;
  for (int i = 7; i >= 0; --i) b += static_cast<char>(bits >> (8 * i));
  std::uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
  jackdaw::detail::sha1::compressPortable(h, reinterpret_cast<const unsigned char*>(b.data()), b.size() / 64);
  unsigned char d[20];
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) d[4 * i + j] = static_cast<unsigned char>(h[i] >> (24 - 8 * j));
  return hex(d);
}

}  // namespace

// FIPS 180-2 appendix A and the NIST examples; the last is the classic pangram.
TEST(Sha1, KnownDigests) {
  const std::pair<std::string, std::string> cases[] = {
      {"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
      {"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
      {std::string(1000000, 'a'), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"},
      {"The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"},
  };
  for (const auto& [m, want] : cases) {
    EXPECT_EQ(oneShot(m), want) << m.size() << " bytes, kernel " << jackdaw::Sha1::kernel();
    EXPECT_EQ(portable(m), want) << m.size() << " bytes";
    for (std::size_t piece : {1u, 7u, 63u, 64u, 65u, 1000u}) EXPECT_EQ(streamed(m, piece), want) << piece;
  }
}

// Every length from 0 to 300 (one and several blocks, every padding case), random bytes: the
// kernel in use, in one piece and in random pieces, agrees with the portable kernel.
TEST(Sha1, KernelsAgreeOnEveryLength) {
  std::mt19937 rng(180);
  for (std::size_t len = 0; len <= 300; ++len)
    for (int rep = 0; rep < 4; ++rep) {
      std::string m(len, '\0');
      for (char& c : m) c = static_cast<char>(rng());
      const std::string want = portable(m);
      EXPECT_EQ(oneShot(m), want) << len;
      EXPECT_EQ(streamed(m, 1 + rng() % 70), want) << len;
    }
}

// digestOf<N>, the one-block path for lengths known when compiling, at every N from 0 to 55, with
// the kernel this CPU uses and with the portable one.
template <std::size_t... N>
void checkEveryLength(std::index_sequence<N...>) {
  std::mt19937 rng(55);
  auto one = [&](auto n) {
    constexpr std::size_t len = decltype(n)::value;
    for (int rep = 0; rep < 8; ++rep) {
      unsigned char m[len + 1];
      for (std::size_t i = 0; i < len; ++i) m[i] = static_cast<unsigned char>(rng());
      unsigned char d[20];
      jackdaw::Sha1::digestOf<len>(m, d);
      const std::string want = portable(std::string(reinterpret_cast<const char*>(m), len));
      EXPECT_EQ(hex(d), want) << len;
      // The one-block path of CPUs without SHA instructions, whichever this one has.
      jackdaw::detail::sha1::shortPortable<len>(m, d, std::make_integer_sequence<int, 16>{});
      EXPECT_EQ(hex(d), want) << len << " (portable)";
    }
  };
  (one(std::integral_constant<std::size_t, N>{}), ...);
}

TEST(Sha1, OneBlockOfAKnownLength) { checkEveryLength(std::make_index_sequence<56>{}); }

