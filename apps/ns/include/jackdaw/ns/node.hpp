// A node of the tree of numerical semigroups (Fromentin & Hivert, Math. Comp. 2016): the
// decomposition numbers of the semigroup S, its conductor, multiplicity and genus.
//
//   jackdaw::ns::Node<128> r = jackdaw::ns::rootNode<128>();   // S = N, genus 0
//   r.dec()[x]                                                 // decompositions of x
//
// dec()[x] = number of unordered pairs {a, b} of S with a + b = x: x is a gap iff it is 0 and a
// generator iff it is 1. dec()[0 .. span) is exact, and gens holds the same facts as bits: bit x
// of gens is dec()[x] == 1 (words past span are 0). The kernels write both at once, so the child
// masks are read from gens with scalar shifts rather than reloaded from the bytes just written.
// The kFront zero bytes before dec()[0] stand for "negative numbers are not in S": the removal
// kernel then needs no special case below x.
#pragma once

#include <cstdint>

namespace jackdaw::ns {

// Zero bytes in front of dec: more than any x a node of size 128 removes (x <= 3 * 41), so its
// removal kernel reads dec[i - x] with no clamp (measured 3 % faster than clamping with 64); a
// larger node clamps at -kFront.
inline constexpr int kFront = 128;

template <int Size>
struct alignas(64) Node {
  static constexpr int size = Size;
  // A node of genus g has conductor c <= 2g and multiplicity m <= g + 1, so its children (the
  // generators in [c, c + m)) lie below 3g + 1: Size / 3 genera fit.
  static constexpr int maxGenus = Size / 3;
  // 64-bit words of a child mask: bit j stands for x = c + j, and j < m <= maxGenus.
  static constexpr int maskWords = (maxGenus + 63) / 64;
  // Exact bytes kept: every position a node that has children tests is below 3 * maxGenus + 1.
  static constexpr int span = Size;
  // Words of gens: span bits, then zero words so that a mask's window (64 * maskWords bits from
  // any position below span) stays inside.
  static constexpr int genWords = span / 64 + maskWords;

  std::uint8_t raw[kFront + span];
  std::uint64_t gens[genWords];  // bit x: dec()[x] == 1
  std::uint8_t c;                // conductor: every x >= c is in S
  std::uint8_t m;                // multiplicity: smallest non-zero element
  std::uint8_t g;                // genus: number of gaps

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
  for (auto& w : r.gens) w = 0;
  r.gens[0] = 0b11;  // dec = 1 at 0 and 1 only
  r.c = 1;
  r.m = 1;
  r.g = 0;
  return r;
}

// Whether `n` is a node of the tree at all: the decomposition numbers of a numerical semigroup
// (exactly the pairs of its elements, so S is closed under addition below span), with the gens bits,
// conductor, multiplicity and genus that S has. O(span^2 / 2) byte compares: a checkpoint's saved
// tasks are checked with it before a resumed search counts their subtrees.
template <int Size>
bool isTreeNode(const Node<Size>& n) {
  using N = Node<Size>;
  for (int i = 0; i < kFront; ++i)
    if (n.raw[i] != 0) return false;
  const auto* dec = n.dec();
  const auto in = [&](int x) { return dec[x] != 0; };
  if (n.g > N::maxGenus || n.c < 1 || n.m < 1 || n.c >= N::span) return false;
  for (int x = 0; x < N::span; ++x) {  // every pair {a, x - a} of S, a <= x - a
    int pairs = 0;
    for (int a = 0; a <= x / 2; ++a) pairs += in(a) && in(x - a);
    if (dec[x] != pairs) return false;
    const bool gen = (n.gens[x / 64] >> (x % 64)) & 1;
    if (gen != (pairs == 1)) return false;
  }
  static_assert(N::span % 64 == 0);
  for (int w = N::span / 64; w < N::genWords; ++w)  // the zero words past span
    if (n.gens[w] != 0) return false;
  int gaps = 0, m = 0;
  for (int x = 1; x < N::span; ++x) {
    if (!in(x)) {
      if (x >= n.c) return false;  // every x >= c is in S
      ++gaps;
    } else if (m == 0) {
      m = x;
    }
  }
  // The root N has no gap; its conductor is kept as 1 (its only generator, 1, is its child).
  const bool conductor = gaps == 0 ? n.c == 1 : !in(n.c - 1);
  return conductor && gaps == n.g && m == n.m;
}

}  // namespace jackdaw::ns
