// The UTS 2.1 random stream: every tree node carries a 20-byte SHA-1 digest.
//
//   root state    = SHA-1(16 zero bytes || seed as 4 big-endian bytes)
//   child i state = SHA-1(parent's 20-byte state || i as 4 big-endian bytes)
//   rand(state)   = last 4 state bytes, big-endian, & 0x7fffffff
//
// SHA-1 is core/sha1.hpp's: a 24-byte message is one compression, with the CPU's SHA instructions
// where it has them (bench/apps-a/sha1_bench measures it against OpenSSL's; bench/results/apps-a.md).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "jackdaw/core/sha1.hpp"

namespace jackdaw::uts {

using State = std::array<unsigned char, 20>;

inline void putBigEndian(unsigned char* p, std::uint32_t v) {
  p[0] = static_cast<unsigned char>(v >> 24);
  p[1] = static_cast<unsigned char>(v >> 16);
  p[2] = static_cast<unsigned char>(v >> 8);
  p[3] = static_cast<unsigned char>(v);
}

inline State rootState(std::int32_t seed) {
  unsigned char buf[20] = {};
  putBigEndian(buf + 16, static_cast<std::uint32_t>(seed));
  State s;
  Sha1::digestOf<sizeof buf>(buf, s.data());
  return s;
}

inline State childState(const State& parent, std::int32_t i) {
  unsigned char buf[24];
  std::memcpy(buf, parent.data(), 20);
  putBigEndian(buf + 20, static_cast<std::uint32_t>(i));
  State s;
  Sha1::digestOf<sizeof buf>(buf, s.data());
  return s;
}

inline std::int32_t rand31(const State& s) {
  const std::uint32_t b = (std::uint32_t{s[16]} << 24) | (std::uint32_t{s[17]} << 16) |
                          (std::uint32_t{s[18]} << 8) | std::uint32_t{s[19]};
  return static_cast<std::int32_t>(b & 0x7fffffffu);
}

// A uniform number in [0, 1), as UTS's rng_toProb.
inline double toProb(std::int32_t r) { return r < 0 ? 0.0 : static_cast<double>(r) / 2147483648.0; }

}  // namespace jackdaw::uts
