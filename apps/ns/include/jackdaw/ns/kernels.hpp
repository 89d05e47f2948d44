// The two hot kernels of the semigroup tree, once per instruction set, and hot(loop): the
// function a skeleton's task loop is compiled into for that set (runHot in core/model.hpp):
//   childMask(p, bits)            bit j of bits <=> c + j is a generator of p with j < m (a child)
//   removeGenerator(p, out, x)    out = p without the generator x
//   childMaskWithout(p, x, bits)  childMask of p without x, read from p (that child is not built)
// Removing x: dec'[i] = dec[i] - [i - x in S], i.e. dec[i] - min(dec[i - x], 1). With the zero bytes
// in front of dec (negative numbers are not in S) this holds for every i, so each kernel runs a
// fixed number of whole registers with no branch on x: reading at max(i - x, -width) gives zeros
// for the registers entirely below x. The child's generators are the y in [x + 1, x + 1 + m') with
// dec'[y] = 1, so its child mask is bit j <=> dec[x + 1 + j] - min(dec[j + 1], 1) = 1, j < m'.
// Scalar is plain C++ (the compiler may still vectorise it for the build's baseline, SSE2 on x86-64);
// Sse2 is the x86-64 baseline; Avx2 and Avx512 carry gnu::target so that one binary holds them all.
// Call them only after checking the CPU (simd.hpp). A call from generic code into Avx2 / Avx512
// cannot be inlined; hot() compiles each task's whole loop per variant instead.
#pragma once

#include <algorithm>
#include <cstdint>

#include "jackdaw/ns/node.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define JACKDAW_NS_X86 1
#endif

namespace jackdaw::ns {

namespace detail {
// Keeps the bits j < m of a child mask.
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
// Removing the multiplicity (only possible when m == c) makes x + 1 the smallest element.
template <int Size>
inline int childMultiplicity(const Node<Size>& p, int x) { return x == p.m ? x + 1 : p.m; }
template <int Size>
inline void setChildMeta(const Node<Size>& p, Node<Size>& out, int x) {
  out.c = static_cast<std::uint8_t>(x + 1);
  out.g = static_cast<std::uint8_t>(p.g + 1);
  out.m = static_cast<std::uint8_t>(childMultiplicity(p, x));
}
}  // namespace detail

struct Scalar {
  static constexpr const char* name = "scalar";
  template <class F>
  [[gnu::flatten]] static void hot(F& loop) { loop(); }
  template <int Size>
  static void childMask(const Node<Size>& p, std::uint64_t* bits) {
    for (int w = 0; w < Node<Size>::maskWords; ++w) bits[w] = 0;
    for (int j = 0; j < p.m; ++j)
      if (p.dec()[p.c + j] == 1) bits[j / 64] |= std::uint64_t{1} << (j % 64);
  }
  template <int Size>
  static void removeGenerator(const Node<Size>& p, Node<Size>& out, int x) {
    for (int i = 0; i < kFront; ++i) out.raw[i] = 0;
    // Two plain loops (a copy, then the update from x on) rather than one with a test on i: the
    // test kept the compiler from vectorising and cost 10x.
    const std::uint8_t* d = p.dec();
    for (int i = 0; i < x; ++i) out.dec()[i] = d[i];
    for (int i = x; i < Node<Size>::span; ++i) out.dec()[i] = static_cast<std::uint8_t>(d[i] - (d[i - x] != 0 ? 1 : 0));
    detail::setChildMeta(p, out, x);
  }
  template <int Size>
  static void childMaskWithout(const Node<Size>& p, int x, std::uint64_t* bits) {
    for (int w = 0; w < Node<Size>::maskWords; ++w) bits[w] = 0;
    const std::uint8_t* d = p.dec();
    const int m = detail::childMultiplicity(p, x);
    for (int j = 0; j < m; ++j)
      if (d[x + 1 + j] - (d[j + 1] != 0 ? 1 : 0) == 1) bits[j / 64] |= std::uint64_t{1} << (j % 64);
  }
};

#ifdef JACKDAW_NS_X86

struct Sse2 {
  static constexpr const char* name = "sse2";
  template <class F>
  [[gnu::flatten]] static void hot(F& loop) { loop(); }
  template <int Size>
  static void childMask(const Node<Size>& p, std::uint64_t* bits) {
    const __m128i one = _mm_set1_epi8(1);
    const std::uint8_t* base = p.dec() + p.c;
    for (int w = 0; w < Node<Size>::maskWords; ++w) {
      std::uint64_t b = 0;
      for (int q = 0; q < 4; ++q) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + 64 * w + 16 * q));
        b |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, one)))) << (16 * q);
      }
      bits[w] = b;
    }
    detail::keepBelow<Node<Size>::maskWords>(bits, p.m);
  }
  template <int Size>
  static void removeGenerator(const Node<Size>& p, Node<Size>& out, int x) {
    const __m128i one = _mm_set1_epi8(1);
    for (int i = 0; i < kFront; i += 16) _mm_store_si128(reinterpret_cast<__m128i*>(out.raw + i), _mm_setzero_si128());
    const std::uint8_t* d = p.dec();
#pragma GCC unroll 32
    for (int i = 0; i < Node<Size>::span; i += 16) {
      const __m128i a = _mm_load_si128(reinterpret_cast<const __m128i*>(d + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + std::max(i - x, -16)));
      _mm_store_si128(reinterpret_cast<__m128i*>(out.dec() + i), _mm_sub_epi8(a, _mm_min_epu8(b, one)));
    }
    detail::setChildMeta(p, out, x);
  }
  template <int Size>
  static void childMaskWithout(const Node<Size>& p, int x, std::uint64_t* bits) {
    const __m128i one = _mm_set1_epi8(1);
    const std::uint8_t* d = p.dec();
    for (int w = 0; w < Node<Size>::maskWords; ++w) {
      std::uint64_t b = 0;
      for (int q = 0; q < 4; ++q) {
        const int j = 64 * w + 16 * q;
        const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + x + 1 + j));
        const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + 1 + j));
        const __m128i v = _mm_sub_epi8(hi, _mm_min_epu8(lo, one));
        b |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, one)))) << (16 * q);
      }
      bits[w] = b;
    }
    detail::keepBelow<Node<Size>::maskWords>(bits, detail::childMultiplicity(p, x));
  }
};

struct Avx2 {
  static constexpr const char* name = "avx2";
  template <class F>
  [[gnu::target("avx2"), gnu::flatten]] static void hot(F& loop) { loop(); }
  template <int Size>
  [[gnu::target("avx2")]] static void childMask(const Node<Size>& p, std::uint64_t* bits) {
    const __m256i one = _mm256_set1_epi8(1);
    const std::uint8_t* base = p.dec() + p.c;
    for (int w = 0; w < Node<Size>::maskWords; ++w) {
      const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + 64 * w));
      const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + 64 * w + 32));
      bits[w] = std::uint64_t(std::uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, one)))) |
                std::uint64_t(std::uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, one)))) << 32;
    }
    detail::keepBelow<Node<Size>::maskWords>(bits, p.m);
  }
  template <int Size>
  [[gnu::target("avx2")]] static void removeGenerator(const Node<Size>& p, Node<Size>& out, int x) {
    const __m256i one = _mm256_set1_epi8(1);
    for (int i = 0; i < kFront; i += 32)
      _mm256_store_si256(reinterpret_cast<__m256i*>(out.raw + i), _mm256_setzero_si256());
    const std::uint8_t* d = p.dec();
#pragma GCC unroll 16
    for (int i = 0; i < Node<Size>::span; i += 32) {
      const __m256i a = _mm256_load_si256(reinterpret_cast<const __m256i*>(d + i));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + std::max(i - x, -32)));
      _mm256_store_si256(reinterpret_cast<__m256i*>(out.dec() + i), _mm256_sub_epi8(a, _mm256_min_epu8(b, one)));
    }
    detail::setChildMeta(p, out, x);
  }
  template <int Size>
  [[gnu::target("avx2")]] static void childMaskWithout(const Node<Size>& p, int x, std::uint64_t* bits) {
    const __m256i one = _mm256_set1_epi8(1);
    const std::uint8_t* d = p.dec();
    for (int w = 0; w < Node<Size>::maskWords; ++w) {
      std::uint64_t b = 0;
      for (int q = 0; q < 2; ++q) {
        const int j = 64 * w + 32 * q;
        const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + x + 1 + j));
        const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + 1 + j));
        const __m256i v = _mm256_sub_epi8(hi, _mm256_min_epu8(lo, one));
        b |= std::uint64_t(std::uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, one)))) << (32 * q);
      }
      bits[w] = b;
    }
    detail::keepBelow<Node<Size>::maskWords>(bits, detail::childMultiplicity(p, x));
  }
};

struct Avx512 {
  static constexpr const char* name = "avx512";
  template <class F>
  [[gnu::target("avx512f,avx512bw"), gnu::flatten]] static void hot(F& loop) { loop(); }
  template <int Size>
  [[gnu::target("avx512f,avx512bw")]] static void childMask(const Node<Size>& p, std::uint64_t* bits) {
    const __m512i one = _mm512_set1_epi8(1);
    const std::uint8_t* base = p.dec() + p.c;
    for (int w = 0; w < Node<Size>::maskWords; ++w)
      bits[w] = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(base + 64 * w), one);
    detail::keepBelow<Node<Size>::maskWords>(bits, p.m);
  }
  template <int Size>
  [[gnu::target("avx512f,avx512bw")]] static void removeGenerator(const Node<Size>& p, Node<Size>& out, int x) {
    constexpr int span = Node<Size>::span;
    _mm512_store_si512(out.raw, _mm512_setzero_si512());
    const std::uint8_t* d = p.dec();
    const __m512i one = _mm512_set1_epi8(1);
    int i = 0;
#pragma GCC unroll 8
    for (; i + 64 <= span; i += 64) {
      const __m512i a = _mm512_load_si512(d + i);
      const __m512i b = _mm512_loadu_si512(d + std::max(i - x, -64));
      _mm512_store_si512(out.dec() + i, _mm512_sub_epi8(a, _mm512_min_epu8(b, one)));
    }
    if constexpr (span % 64 != 0) {  // span is a multiple of 32: one half register left
      const __m256i a = _mm256_load_si256(reinterpret_cast<const __m256i*>(d + i));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + std::max(i - x, -32)));
      _mm256_store_si256(reinterpret_cast<__m256i*>(out.dec() + i),
                         _mm256_sub_epi8(a, _mm256_min_epu8(b, _mm256_set1_epi8(1))));
    }
    detail::setChildMeta(p, out, x);
  }
  template <int Size>
  [[gnu::target("avx512f,avx512bw")]] static void childMaskWithout(const Node<Size>& p, int x, std::uint64_t* bits) {
    const __m512i one = _mm512_set1_epi8(1);
    const std::uint8_t* d = p.dec();
    for (int w = 0; w < Node<Size>::maskWords; ++w) {
      const __m512i hi = _mm512_loadu_si512(d + x + 1 + 64 * w);
      const __m512i lo = _mm512_loadu_si512(d + 1 + 64 * w);
      bits[w] = _mm512_cmpeq_epi8_mask(_mm512_sub_epi8(hi, _mm512_min_epu8(lo, one)), one);
    }
    detail::keepBelow<Node<Size>::maskWords>(bits, detail::childMultiplicity(p, x));
  }
};

#endif  // JACKDAW_NS_X86

}  // namespace jackdaw::ns
