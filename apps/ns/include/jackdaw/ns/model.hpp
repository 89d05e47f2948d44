// The numerical-semigroup search model: counting semigroups by genus over the tree of
// Fromentin & Hivert, with the children of a node in increasing generator order.
//
//   using M = jackdaw::ns::Model<jackdaw::ns::Avx2, 128>;    // kernels x node size (genus <= 42)
//   jackdaw::SearchParams<long long> p; p.maxDepth = G;       // depth = genus, root N at depth 0
//   auto r = jackdaw::seq::search<M, jackdaw::ns::Kind>({}, M::root(), p);
//   r.enumerator.get()[g]                                     // semigroups of genus g, g <= G
//
// Leaves of the tree (semigroups without children) are counted from their parent without being
// built (Space::buildLeaves, Generator::dropLeaves): about 37 % of the nodes at every genus.
//
// Node<Size> holds genera up to Size / 3 (128: 42, 256: 85); deeper nodes get no children, so keep
// maxDepth <= M::maxGenus. Prefer withModel() (dispatch.hpp): it picks the size and compiles the
// whole search for the chosen instruction set.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "jackdaw/core/search_kind.hpp"
#include "jackdaw/core/stats.hpp"
#include "jackdaw/ns/kernels.hpp"
#include "jackdaw/ns/node.hpp"

namespace jackdaw::ns {

// The tree needs no problem data (the depth limit is params.maxDepth), only how to search it.
struct Space {
  // Build every node, leaves too (true), or count the leaves from their parent (false: the
  // unleaved tree, Generator::dropLeaves). The same counts either way.
  bool buildLeaves = false;
};

template <class Isa, int Size>
struct Generator {
  static constexpr int words = Node<Size>::maskWords;

  // always_inline: without it GCC 12 kept these two out of line in the skeletons' hot loops
  // ("callee refers to comdat-local symbols"), a call and a libgcc popcount per node.
  [[gnu::always_inline]] Generator(const Space& s, const Node<Size>& p) : parent(p), countsLeaves(!s.buildLeaves) {
    if (p.g >= Node<Size>::maxGenus) {  // its children would not fit in the node
      for (auto& b : bits) b = 0;
      return;
    }
    detail::childMask(p, bits);
    numChildren = ones(bits);
  }

  // The next generator x >= c, in increasing order, removed from the parent — written straight
  // into the engine's stack frame (no copy of the node).
  [[gnu::always_inline]] void nextInto(Node<Size>& child) { Isa::removeGenerator(parent, child, takeNext()); }
  Node<Size> next() {
    Node<Size> child;
    nextInto(child);
    return child;
  }

  // How many children the next child has, without building it (the engine counts the last two
  // levels of the tree this way); steps past that child like nextInto().
  [[gnu::always_inline]] int countChildrenOfNext() {
    const int x = takeNext();
    if (parent.g + 1 >= Node<Size>::maxGenus) return 0;  // as the child's own Generator says
    return detail::childrenWithout(parent, x);
  }

  // The unleaved tree (after Bras-Amoros, 2025): the children that have no children themselves
  // are counted, not built. Only the largest child can be such a leaf: a child S \ {x} keeps as
  // generators the parent's generators y in (x, x + m), so every child but the last has the last.
  [[gnu::always_inline]] int dropLeaves() {
    if (!countsLeaves || numChildren == 0) return 0;
    if (parent.g + 1 >= Node<Size>::maxGenus) {  // every child is a leaf (its Generator says so)
      const int k = numChildren;
      for (auto& b : bits) b = 0;
      numChildren = 0;
      return k;
    }
    int w = words - 1;
    while (bits[w] == 0) --w;
    const int j = 63 - std::countl_zero(bits[w]);
    if (detail::childrenWithout(parent, parent.c + 64 * w + j) != 0) return 0;
    bits[w] &= ~(std::uint64_t{1} << j);
    --numChildren;
    return 1;
  }

  [[gnu::always_inline]] static int ones(const std::uint64_t (&mask)[words]) { return detail::ones<words>(mask); }

  // The next generator x >= c (the smallest left), taken off the mask.
  [[gnu::always_inline]] int takeNext() {
    int w = 0;
    while (bits[w] == 0) ++w;
    const int x = parent.c + 64 * w + std::countr_zero(bits[w]);
    bits[w] &= bits[w] - 1;
    return x;
  }

  const Node<Size>& parent;
  bool countsLeaves;
  std::uint64_t bits[words];
  int numChildren = 0;
};

// Semigroups per genus. A fixed array: the hot path is one increment, no size check.
struct GenusCounts {
  static constexpr std::size_t capacity = 96;
  std::array<std::uint64_t, capacity> counts{};

  template <class N>
  void accumulate(const N& n) { ++counts[n.g]; }
  // The children of `parent` at the depth limit, counted without being built.
  template <class N>
  void accumulateChildren(const N& parent, std::size_t k) { counts[parent.g + 1u] += k; }
  // ... and its grandchildren.
  template <class N>
  void accumulateGrandchildren(const N& parent, std::size_t k) { counts[parent.g + 2u] += k; }
  void combine(const GenusCounts& o) {
    for (std::size_t i = 0; i < capacity; ++i) counts[i] += o.counts[i];
  }
  // Every node visited is counted once, in its genus (core/model.hpp, ChecksCounts).
  bool consistentWith(const SearchStats& s) const {
    std::uint64_t sum = 0;
    for (const auto c : counts)
      if (__builtin_add_overflow(sum, c, &sum)) return false;
    return sum == s.nodes;
  }
  const std::array<std::uint64_t, capacity>& get() const { return counts; }
};

using Kind = Enumeration<GenusCounts>;

template <class Isa, int Size>
struct Model {
  using Space = ns::Space;
  using Node = ns::Node<Size>;
  using Generator = ns::Generator<Isa, Size>;
  using Kernels = Isa;
  static constexpr int maxGenus = Node::maxGenus;
  static Node root() { return rootNode<Size>(); }
  // A saved task (a checkpoint): a semigroup, at the depth of its genus (core/model.hpp, ChecksNodes).
  static bool valid(const Space&, const Node& n, int depth) { return (depth < 0 || n.g == depth) && isTreeNode(n); }
  // Every skeleton's task loop, compiled for Isa with the kernels inlined (core/model.hpp runHot).
  template <class F>
  static void hot(F& loop) { Isa::hot(loop); }
};

}  // namespace jackdaw::ns
