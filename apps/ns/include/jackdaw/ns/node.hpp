// A node of the tree of numerical semigroups (Fromentin & Hivert, Math. Comp. 2016): the
// decomposition numbers of the semigroup S, its conductor, multiplicity and genus.
//
//   jackdaw::ns::Node<128> r = jackdaw::ns::rootNode<128>();   // S = N, genus 0
//   r.dec()[x]                                                 // decompositions of x
//
// dec()[x] = number of unordered pairs {a, b} of S with a + b = x: x is a gap iff it is 0 and a
// generator iff it is 1. dec()[0 .. span) is exact. The kFront zero bytes before dec()[0] stand for
// "negative numbers are not in S": the removal kernel then needs no special case below x.
#pragma once

#include <cstdint>

namespace jackdaw::ns {

inline constexpr int kFront = 64;  // one AVX-512 register of zeros

template <int Size>
struct alignas(64) Node {
  static constexpr int size = Size;
  // A node of genus g has conductor c <= 2g and multiplicity m <= g + 1, so its children (the
  // generators in [c, c + m)) lie below 3g + 1: Size / 3 genera fit.
  static constexpr int maxGenus = Size / 3;
  // 64-bit words of a child mask: bit j stands for x = c + j, and j < m <= maxGenus.
  static constexpr int maskWords = (maxGenus + 63) / 64;
  // Exact bytes kept: Size plus what the child-mask window [c, c + 64 * maskWords) reads beyond
  // it, rounded up to 32 bytes so the vector kernels run whole registers.
  static constexpr int windowEnd = 2 * (maxGenus - 1) + 64 * maskWords;
  static constexpr int span = windowEnd <= Size ? Size : Size + (windowEnd - Size + 31) / 32 * 32;

  std::uint8_t raw[kFront + span];
  std::uint8_t c;  // conductor: every x >= c is in S
  std::uint8_t m;  // multiplicity: smallest non-zero element
  std::uint8_t g;  // genus: number of gaps

  std::uint8_t* dec() { return raw + kFront; }
  const std::uint8_t* dec() const { return raw + kFront; }
};

template <int Size>
Node<Size> rootNode() {
  using N = Node<Size>;
  static_assert((N::span - 1) / 2 + 1 <= 255, "decomposition numbers must fit in a byte");
  N r;
  for (int i = 0; i < kFront; ++i) r.raw[i] = 0;
  // In N every pair {a, x - a} with a <= x / 2 counts.
  for (int x = 0; x < N::span; ++x) r.dec()[x] = static_cast<std::uint8_t>(x / 2 + 1);
  r.c = 1;
  r.m = 1;
  r.g = 0;
  return r;
}

}  // namespace jackdaw::ns
