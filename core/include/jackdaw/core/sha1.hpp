// SHA-1 (FIPS 180-4), the digest UTS's trees are defined by (a child's state is the SHA-1 of its
// parent's and its index) and checkpoints name their input files by.
//
//   unsigned char d[20];
//   jackdaw::Sha1::digest(bytes, n, d);                  // one message
//   jackdaw::Sha1::digestOf<24>(bytes, d);               // one of a length known when compiling
//   jackdaw::Sha1 h; h.update(p, n); h.update(q, m); auto d = h.final();   // in pieces
//
// The compression uses the x86-64 SHA instructions where the CPU has them (Intel since Ice Lake
// and Goldmont, AMD since Zen) and portable code otherwise, chosen once at first use
// (Sha1::kernel() says which). A message of at most 55 bytes, every UTS node's, is one block;
// digestOf<N> builds that block's words directly from the message, in registers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace jackdaw {

namespace detail::sha1 {

inline std::uint32_t rol(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

inline std::uint32_t loadBig(const unsigned char* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | std::uint32_t{p[3]};
}

// The 80 rounds of one block, its 16 words in w (overwritten: the message schedule).
inline void roundsPortable(std::uint32_t h[5], std::uint32_t w[16]) {
  std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int t = 0; t < 80; ++t) {
    if (t >= 16) w[t & 15] = rol(w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15], 1);
    std::uint32_t f, k;
    if (t < 20) f = (b & c) | (~b & d), k = 0x5a827999;
    else if (t < 40) f = b ^ c ^ d, k = 0x6ed9eba1;
    else if (t < 60) f = (b & c) | (b & d) | (c & d), k = 0x8f1bbcdc;
    else f = b ^ c ^ d, k = 0xca62c1d6;
    const std::uint32_t x = rol(a, 5) + f + e + k + w[t & 15];
    e = d, d = c, c = rol(b, 30), b = a, a = x;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

// Compress `blocks` 64-byte blocks into h.
inline void compressPortable(std::uint32_t h[5], const unsigned char* p, std::size_t blocks) {
  for (; blocks > 0; --blocks, p += 64) {
    std::uint32_t w[16];
    for (int t = 0; t < 16; ++t) w[t] = loadBig(p + 4 * t);
    roundsPortable(h, w);
  }
}

inline constexpr std::uint32_t kInitial[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};

// The digest's 20 bytes: the state's words, big-endian.
inline void storeDigest(const std::uint32_t h[5], unsigned char* out) {
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<unsigned char>(h[i] >> (24 - 8 * j));
}

// Word T of the one padded block of an N-byte message (N <= 55): the message's bytes, 0x80, zeros,
// the length in bits last. Everything but the bytes read is known when compiling.
template <std::size_t N, int T>
[[gnu::always_inline]] inline std::uint32_t paddedWord(const unsigned char* d) {
  constexpr std::size_t at = 4 * T;
  if constexpr (T == 15) {
    return static_cast<std::uint32_t>(N * 8);
  } else if constexpr (at + 4 <= N) {
    return loadBig(d + at);
  } else if constexpr (at <= N) {
    std::uint32_t w = 0x80u << (24 - 8 * (N - at));
    for (std::size_t i = 0; i < N - at; ++i) w |= std::uint32_t{d[at + i]} << (24 - 8 * i);
    return w;
  } else {
    return 0;
  }
}

// The digest of an N-byte message (N <= 55, one block) with the portable rounds.
template <std::size_t N, int... T>
inline void shortPortable(const unsigned char* d, unsigned char* out, std::integer_sequence<int, T...>) {
  std::uint32_t w[16] = {paddedWord<N, T>(d)...};
  std::uint32_t h[5] = {kInitial[0], kInitial[1], kInitial[2], kInitial[3], kInitial[4]};
  roundsPortable(h, w);
  storeDigest(h, out);
}

#if defined(__x86_64__)
// Four-round group I (0..19) with the SHA instructions. Lanes hold words high to low: A (or W[t])
// in lane 3. The group's message words W[4I..4I+3] are m[I % 4]; from I = 4 on they are made from
// the four groups before (W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]): sha1msg1, a xor and
// sha1msg2). sha1nexte adds the group's E (rol30 of A four rounds back, from `prev`) to them; group
// 0's E is the state's. Round function I / 5. Indices are constants, so m stays in registers.
template <int I>
[[gnu::target("sha,sse4.1"), gnu::always_inline]] inline void group(__m128i& abcd, __m128i& prev, __m128i (&m)[4],
                                                                     __m128i e0) {
  if constexpr (I >= 4)
    m[I & 3] = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32(m[I & 3], m[(I + 1) & 3]), m[(I + 2) & 3]),
                                  m[(I + 3) & 3]);
  const __m128i e = I == 0 ? _mm_add_epi32(e0, m[0]) : _mm_sha1nexte_epu32(prev, m[I & 3]);
  prev = abcd;
  abcd = _mm_sha1rnds4_epu32(abcd, e, I / 5);
}

template <int... I>
[[gnu::target("sha,sse4.1"), gnu::always_inline]] inline void groups(std::integer_sequence<int, I...>, __m128i& abcd,
                                                                      __m128i& prev, __m128i (&m)[4], __m128i e0) {
  (group<I>(abcd, prev, m, e0), ...);
}

// One block's 80 rounds on the state (abcd, e0), its words in m.
[[gnu::target("sha,sse4.1"), gnu::always_inline]] inline void blockShaNi(__m128i& abcd, __m128i& e0, __m128i (&m)[4]) {
  const __m128i abcdSave = abcd;
  __m128i prev = abcd;
  groups(std::make_integer_sequence<int, 20>{}, abcd, prev, m, e0);
  e0 = _mm_sha1nexte_epu32(prev, e0);
  abcd = _mm_add_epi32(abcd, abcdSave);
}

[[gnu::target("sha,sse4.1"), gnu::always_inline]] inline __m128i bigEndianWords(const unsigned char* p) {
  return _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)),
                          _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL));
}

[[gnu::target("sha,sse4.1")]] inline void compressShaNi(std::uint32_t h[5], const unsigned char* p, std::size_t blocks) {
  __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h)), 0x1b);
  __m128i e0 = _mm_set_epi32(static_cast<int>(h[4]), 0, 0, 0);
  for (; blocks > 0; --blocks, p += 64) {
    __m128i m[4] = {bigEndianWords(p), bigEndianWords(p + 16), bigEndianWords(p + 32), bigEndianWords(p + 48)};
    blockShaNi(abcd, e0, m);
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), _mm_shuffle_epi32(abcd, 0x1b));
  h[4] = static_cast<std::uint32_t>(_mm_extract_epi32(e0, 3));
}

template <std::size_t N, int K>
[[gnu::target("sha,sse4.1"), gnu::always_inline]] inline __m128i paddedWords(const unsigned char* d) {
  if constexpr (16 * K + 16 <= N) {
    return bigEndianWords(d + 16 * K);
  } else {
    return _mm_set_epi32(static_cast<int>(paddedWord<N, 4 * K>(d)), static_cast<int>(paddedWord<N, 4 * K + 1>(d)),
                         static_cast<int>(paddedWord<N, 4 * K + 2>(d)), static_cast<int>(paddedWord<N, 4 * K + 3>(d)));
  }
}

// The digest of an N-byte message, its one block built in registers: no buffer to store and load
// again (a 16-byte load of bytes stored in smaller pieces waits for the stores to retire).
template <std::size_t N>
[[gnu::target("sha,sse4.1")]] inline void shortShaNi(const unsigned char* d, unsigned char* out) {
  __m128i abcd = _mm_set_epi32(static_cast<int>(kInitial[0]), static_cast<int>(kInitial[1]),
                               static_cast<int>(kInitial[2]), static_cast<int>(kInitial[3]));
  __m128i e0 = _mm_set_epi32(static_cast<int>(kInitial[4]), 0, 0, 0);
  __m128i m[4] = {paddedWords<N, 0>(d), paddedWords<N, 1>(d), paddedWords<N, 2>(d), paddedWords<N, 3>(d)};
  blockShaNi(abcd, e0, m);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                   _mm_shuffle_epi8(abcd, _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL)));
  const std::uint32_t e = __builtin_bswap32(static_cast<std::uint32_t>(_mm_extract_epi32(e0, 3)));
  std::memcpy(out + 16, &e, 4);
}

inline bool cpuHasShaNi() {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1)) return false;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29)) != 0;  // leaf 7 EBX bit 29: SHA
}
#endif

using Compress = void (*)(std::uint32_t*, const unsigned char*, std::size_t);

inline bool hasShaNi() {
#if defined(__x86_64__)
  static const bool has = cpuHasShaNi();
  return has;
#else
  return false;
#endif
}

inline Compress chosen() {
#if defined(__x86_64__)
  if (hasShaNi()) return &compressShaNi;
#endif
  return &compressPortable;
}

}  // namespace detail::sha1

class Sha1 {
 public:
  using Digest = std::array<unsigned char, 20>;

  void update(const void* data, std::size_t len) {
    auto p = static_cast<const unsigned char*>(data);
    bytes_ += len;
    if (fill_ > 0) {
      const std::size_t k = len < 64 - fill_ ? len : 64 - fill_;
      std::memcpy(buf_ + fill_, p, k);
      fill_ += k, p += k, len -= k;
      if (fill_ < 64) return;
      compress_(h_, buf_, 1);
      fill_ = 0;
    }
    if (len >= 64) {
      compress_(h_, p, len / 64);
      p += len / 64 * 64, len %= 64;
    }
    std::memcpy(buf_, p, len);
    fill_ = len;
  }

  // The digest of everything given; the object is spent afterwards.
  Digest final() {
    const std::uint64_t bits = bytes_ * 8;
    const unsigned char one = 0x80, zero[64] = {};
    update(&one, 1);
    update(zero, fill_ <= 56 ? 56 - fill_ : 120 - fill_);
    unsigned char len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
    update(len, 8);
    Digest out;
    detail::sha1::storeDigest(h_, out.data());
    return out;
  }

  // One message.
  static void digest(const void* data, std::size_t len, unsigned char out[20]) {
    Sha1 s;
    s.update(data, len);
    const Digest d = s.final();
    std::memcpy(out, d.data(), d.size());
  }

  // The same for a message whose length N (at most 55: one block) is known when compiling, as
  // UTS's are (20 and 24 bytes); with the SHA instructions the block never goes through memory.
  template <std::size_t N>
  static void digestOf(const unsigned char* data, unsigned char out[20]) {
    static_assert(N <= 55, "digestOf<N>: one block holds at most 55 message bytes");
#if defined(__x86_64__)
    if (detail::sha1::hasShaNi()) {
      detail::sha1::shortShaNi<N>(data, out);
      return;
    }
#endif
    detail::sha1::shortPortable<N>(data, out, std::make_integer_sequence<int, 16>{});
  }

  // Which compression this process uses: "sha-ni" or "portable".
  static const char* kernel() {
#if defined(__x86_64__)
    if (detail::sha1::hasShaNi()) return "sha-ni";
#endif
    return "portable";
  }

 private:
  std::uint32_t h_[5] = {detail::sha1::kInitial[0], detail::sha1::kInitial[1], detail::sha1::kInitial[2],
                         detail::sha1::kInitial[3], detail::sha1::kInitial[4]};
  unsigned char buf_[64];
  std::size_t fill_ = 0;
  std::uint64_t bytes_ = 0;
  detail::sha1::Compress compress_ = detail::sha1::chosen();
};

}  // namespace jackdaw
