// The kernel of the semigroup tree, once per instruction set, and hot(loop): the function a
// skeleton's task loop is compiled into for that set (runHot in core/model.hpp):
//   removeGenerator(p, out, x)  out = p without the generator x: its dec bytes and gens bits
// and, from the gens bits with scalar shifts (the same code for every set):
//   childMask(p, bits)          bit j of bits <=> c + j is a generator of p with j < m (a child)
//   childrenWithout(p, x)       how many children p without x has, read from p (that child is not built)
// Removing x: dec'[i] = dec[i] - [i - x in S], i.e. dec[i] - min(dec[i - x], 1). With the zero bytes
// in front of dec (negative numbers are not in S) this holds for every i, so each kernel runs a
// fixed number of whole registers with no branch on x: the registers entirely below x read
// zeros from the front (detail::shiftedBy). The same registers, compared with 1, give the gens bits, so
// no mask is ever reloaded from the bytes just stored (a load across several recent stores waits
// for them: reading the masks that way cost more than the work it saved).
// The child without x has conductor x + 1 and multiplicity m' (m, or x + 1 when x = m); its
// children are the y = x + 1 + j, j < m', with dec'[y] = 1, where dec'[y] = dec[y] - [j + 1 in S].
// S has nothing in [1, m) and holds m (and m + 1 when x = m, as then c = m), so that is
// dec[x + 1 + j] = 1 for j < m - 1 (gens bits), then dec[x + m] = 2 (and dec[x + m + 1] = 2 when x = m).
// Scalar is plain C++ (the compiler may still vectorise it for the build's baseline, SSE2 on x86-64);
// Sse2 is the x86-64 baseline; Avx2 and Avx512 carry gnu::target (with BMI1/BMI2 and POPCNT, which
// every CPU with AVX2 has; simd.cpp checks) so that one binary holds them all. Call them only after
// checking the CPU (simd.hpp). A call from generic code into Avx2 / Avx512 cannot be inlined; hot()
// compiles each task's whole loop per variant instead.
#pragma once

#include <algorithm>
#include <cstdint>

#include "jackdaw/ns/node.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define JACKDAW_NS_X86 1
#endif

// The instruction sets of the Avx2 and Avx512 variants: every function of a variant, hot() and
// the dispatch entry points (dispatch.hpp) carry the same set, so that all of it inlines into one loop.
#define JACKDAW_NS_AVX2_TARGET "avx2,bmi,bmi2,popcnt"
#define JACKDAW_NS_AVX512_TARGET "avx512f,avx512bw,bmi,bmi2,popcnt"

namespace jackdaw::ns {

namespace detail {
// Keeps the bits j < m of a mask.
template <int Words>
inline void keepBelow(std::uint64_t* bits, int m) {
  if constexpr (Words == 1) {
    bits[0] &= (std::uint64_t{1} << m) - 1;  // m <= maxGenus < 64
  } else {
    for (int w = 0; w < Words; ++w) {
      const int left = m - 64 * w;
      if (left <= 0) bits[w] = 0;
      else if (left < 64) bits[w] &= (std::uint64_t{1} << left) - 1;
    }
  }
}
template <int Words>
inline int ones(const std::uint64_t* bits) {
  int n = 0;
  for (int w = 0; w < Words; ++w) n += __builtin_popcountll(bits[w]);
  return n;
}
// bits[k] = gens bits at + 64k .. at + 64k + 63 (at < span: the zero words past span cover the rest).
template <int Size>
inline void window(const Node<Size>& p, int at, std::uint64_t* bits) {
  const int w = at >> 6;
  const int s = at & 63;
  for (int k = 0; k < Node<Size>::maskWords; ++k) {
    const unsigned __int128 v = static_cast<unsigned __int128>(p.gens[w + k + 1]) << 64 | p.gens[w + k];
    bits[k] = static_cast<std::uint64_t>(v >> s);
  }
}
template <int Size>
inline void childMask(const Node<Size>& p, std::uint64_t* bits) {
  window(p, p.c, bits);
  keepBelow<Node<Size>::maskWords>(bits, p.m);
}
template <int Size>
inline int childrenWithout(const Node<Size>& p, int x) {
  constexpr int words = Node<Size>::maskWords;
  std::uint64_t bits[words];
  window(p, x + 1, bits);
  keepBelow<words>(bits, p.m - 1);
  const std::uint8_t* d = p.dec();
  int n = ones<words>(bits) + (d[x + p.m] == 2);
  if (x == p.m) n += d[x + p.m + 1] == 2;
  return n;
}
// Where removing x reads p for the register at i (W bytes): dec + i - x, whose bytes below dec
// are the zero front. A node of size 128 never removes x >= kFront; a larger one reads the
// front's start for the registers wholly below x - kFront.
template <int Size>
inline const std::uint8_t* shiftedBy(const std::uint8_t* d, int i, int x) {
  if constexpr (3 * (Node<Size>::maxGenus - 1) < kFront) return d + i - x;
  else return d + std::max(i - x, -kFront);
}
// Removing the multiplicity (only possible when m == c) makes x + 1 the smallest element.
template <int Size>
inline int childMultiplicity(const Node<Size>& p, int x) { return x == p.m ? x + 1 : p.m; }
template <int Size>
inline void setChildMeta(const Node<Size>& p, Node<Size>& out, int x) {
  out.c = static_cast<std::uint8_t>(x + 1);
  out.g = static_cast<std::uint8_t>(p.g + 1);
  out.m = static_cast<std::uint8_t>(childMultiplicity(p, x));
  for (int w = Node<Size>::span / 64; w < Node<Size>::genWords; ++w) out.gens[w] = 0;
}
}  // namespace detail

struct Scalar {
  static constexpr const char* name = "scalar";
  template <class F>
  [[gnu::flatten]] static void hot(F& loop) { loop(); }
  template <int Size>
  static void removeGenerator(const Node<Size>& p, Node<Size>& out, int x) {
    for (int i = 0; i < kFront; ++i) out.raw[i] = 0;
    // Two plain loops (a copy, then the update from x on) rather than one with a test on i: the
    // test kept the compiler from vectorising and cost 10x.
    const std::uint8_t* d = p.dec();
    std::uint8_t* o = out.dec();
    for (int i = 0; i < x; ++i) o[i] = d[i];
    for (int i = x; i < Node<Size>::span; ++i) o[i] = static_cast<std::uint8_t>(d[i] - (d[i - x] != 0 ? 1 : 0));
    for (int w = 0; w < Node<Size>::span / 64; ++w) {
      std::uint64_t b = 0;
      for (int i = 0; i < 64; ++i) b |= std::uint64_t{o[64 * w + i] == 1} << i;
      out.gens[w] = b;
    }
    detail::setChildMeta(p, out, x);
  }
};

#ifdef JACKDAW_NS_X86

struct Sse2 {
  static constexpr const char* name = "sse2";
  template <class F>
  [[gnu::flatten]] static void hot(F& loop) { loop(); }
  template <int Size>
  static void removeGenerator(const Node<Size>& p, Node<Size>& out, int x) {
    const __m128i one = _mm_set1_epi8(1);
    for (int i = 0; i < kFront; i += 16) _mm_store_si128(reinterpret_cast<__m128i*>(out.raw + i), _mm_setzero_si128());
    const std::uint8_t* d = p.dec();
#pragma GCC unroll 4
    for (int w = 0; w < Node<Size>::span / 64; ++w) {
      std::uint64_t bits = 0;
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) {
        const int i = 64 * w + 16 * q;
        const __m128i a = _mm_load_si128(reinterpret_cast<const __m128i*>(d + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(detail::shiftedBy<Size>(d, i, x)));
        const __m128i v = _mm_sub_epi8(a, _mm_min_epu8(b, one));
        _mm_store_si128(reinterpret_cast<__m128i*>(out.dec() + i), v);
        bits |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, one)))) << (16 * q);
      }
      out.gens[w] = bits;
    }
    detail::setChildMeta(p, out, x);
  }
};

struct Avx2 {
  static constexpr const char* name = "avx2";
  template <class F>
  [[gnu::target(JACKDAW_NS_AVX2_TARGET), gnu::flatten]] static void hot(F& loop) { loop(); }
  template <int Size>
  [[gnu::target(JACKDAW_NS_AVX2_TARGET)]] static void removeGenerator(const Node<Size>& p, Node<Size>& out, int x) {
    const __m256i one = _mm256_set1_epi8(1);
    for (int i = 0; i < kFront; i += 32)
      _mm256_store_si256(reinterpret_cast<__m256i*>(out.raw + i), _mm256_setzero_si256());
    const std::uint8_t* d = p.dec();
#pragma GCC unroll 4
    for (int w = 0; w < Node<Size>::span / 64; ++w) {
      std::uint64_t bits = 0;
#pragma GCC unroll 2
      for (int q = 0; q < 2; ++q) {
        const int i = 64 * w + 32 * q;
        const __m256i a = _mm256_load_si256(reinterpret_cast<const __m256i*>(d + i));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(detail::shiftedBy<Size>(d, i, x)));
        const __m256i v = _mm256_sub_epi8(a, _mm256_min_epu8(b, one));
        _mm256_store_si256(reinterpret_cast<__m256i*>(out.dec() + i), v);
        bits |= std::uint64_t(std::uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, one)))) << (32 * q);
      }
      out.gens[w] = bits;
    }
    detail::setChildMeta(p, out, x);
  }
};

// The AVX2 kernel, in a loop compiled for AVX-512. Its 512-bit form (one register per gens word,
// k-mask compares) ran 8 % slower on the AMD EPYC (Zen 4: family 25, model 17) of
// bench/results/vs-peers.md, likely because every 64-byte load of the parent at an offset crosses
// a cache line, and Zen 4 runs 512-bit operations as two 256-bit halves anyway. On Zen 5 (family
// 26), whose 512-bit units are whole, it was slower too (genus <= 36: 0.86-0.90 s against 0.80-0.82 s).
// It stays a variant of its own for --simd, and for CPUs where the wider kernel would win.
struct Avx512 {
  static constexpr const char* name = "avx512";
  template <class F>
  [[gnu::target(JACKDAW_NS_AVX512_TARGET), gnu::flatten]] static void hot(F& loop) { loop(); }
  template <int Size>
  [[gnu::target(JACKDAW_NS_AVX512_TARGET)]] static void removeGenerator(const Node<Size>& p, Node<Size>& out, int x) {
    Avx2::removeGenerator(p, out, x);
  }
};

#endif  // JACKDAW_NS_X86

}  // namespace jackdaw::ns
