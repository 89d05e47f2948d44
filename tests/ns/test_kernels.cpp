// The kernels against a reference that works on the semigroup as a set: decomposition numbers,
// conductor, multiplicity, genus and generators recomputed from scratch along random tree paths.
#include <gtest/gtest.h>

#include <bitset>
#include <random>
#include <vector>

#include "jackdaw/ns/model.hpp"
#include "jackdaw/ns/simd.hpp"

namespace {

using namespace jackdaw;

// S restricted to [0, Span): a bitset, so the reference shares no code with the kernels.
template <int Span>
struct SetRef {
  static constexpr int Size = Span;
  std::bitset<Span> in;
  SetRef() { in.set(); }
  int dec(int x) const {
    int n = 0;
    for (int a = 0; 2 * a <= x; ++a) n += in[a] && in[x - a];
    return n;
  }
  int genus() const { return Size - static_cast<int>(in.count()); }
  int conductor() const {
    int c = 0;
    for (int x = 0; x < Size; ++x)
      if (!in[x]) c = x + 1;
    return c;
  }
  int multiplicity() const {
    for (int x = 1; x < Size; ++x)
      if (in[x]) return x;
    return Size;
  }
  // Generators no smaller than the conductor: the children in the tree.
  std::vector<int> childGenerators() const {
    std::vector<int> out;
    for (int x = conductor(); x < Size; ++x) {
      if (x == 0 || !in[x]) continue;
      bool sum = false;
      for (int a = 1; 2 * a <= x && !sum; ++a) sum = in[a] && in[x - a];
      if (!sum) out.push_back(x);
    }
    return out;
  }
};

template <int Size>
void expectSame(const ns::Node<Size>& n, const SetRef<ns::Node<Size>::span>& s, const char* isa, int step) {
  ASSERT_EQ(n.g, s.genus()) << isa << " step " << step;
  ASSERT_EQ(n.c, s.conductor()) << isa << " step " << step;
  ASSERT_EQ(n.m, s.multiplicity()) << isa << " step " << step;
  for (int x = 0; x < ns::Node<Size>::span; ++x) ASSERT_EQ(n.dec()[x], s.dec(x)) << isa << " x " << x << " step " << step;
  for (int i = 0; i < ns::kFront; ++i) ASSERT_EQ(n.raw[i], 0) << isa << ": the bytes before dec must stay 0";
}

template <class Isa, int Size>
void randomPaths(unsigned seed, int paths) {
  using G = ns::Generator<Isa, Size>;
  std::mt19937 rng(seed);
  for (int p = 0; p < paths; ++p) {
    ns::Node<Size> node = ns::rootNode<Size>();
    SetRef<ns::Node<Size>::span> ref;
    for (int step = 0; step < ns::Node<Size>::maxGenus; ++step) {
      const auto expected = ref.childGenerators();
      // Children x < c + m <= 3g + 1 of a node of genus g < maxGenus are all inside the set.
      G gen({}, node);
      ASSERT_EQ(static_cast<std::size_t>(gen.numChildren), expected.size()) << Isa::name << " step " << step;
      std::vector<ns::Node<Size>> kids;
      for (int k = 0; k < gen.numChildren; ++k) kids.push_back(gen.next());
      for (std::size_t k = 0; k < kids.size(); ++k)
        ASSERT_EQ(kids[k].c, expected[k] + 1) << Isa::name << ": children must come in increasing order";
      // Each child's number of children, read from the parent, is what the built child's
      // generator finds (childMaskWithout; the engine counts the last two levels with it).
      G counter({}, node);
      for (std::size_t k = 0; k < kids.size(); ++k)
        ASSERT_EQ(counter.countChildrenOfNext(), G({}, kids[k]).numChildren) << Isa::name << " step " << step << " child " << k;
      if (kids.empty()) break;
      const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, kids.size() - 1)(rng);
      ref.in.reset(expected[pick]);
      node = kids[pick];
      expectSame(node, ref, Isa::name, step);
    }
    // Deeper than the node holds: no children rather than wrong ones.
    if (node.g == ns::Node<Size>::maxGenus) {
      EXPECT_EQ(G({}, node).numChildren, 0);
    }
  }
}

template <class Isa>
void randomPathsBothSizes(ns::Simd s) {
  if (!ns::cpuHas(s)) {
    GTEST_SKIP() << "CPU lacks " << ns::toString(s);
  }
  randomPaths<Isa, 128>(7, 60);
  randomPaths<Isa, 256>(11, 15);
}

TEST(NsKernels, ScalarMatchesSetReference) { randomPathsBothSizes<ns::Scalar>(ns::Simd::Scalar); }
#ifdef JACKDAW_NS_X86
TEST(NsKernels, Sse2MatchesSetReference) { randomPathsBothSizes<ns::Sse2>(ns::Simd::Sse2); }
TEST(NsKernels, Avx2MatchesSetReference) { randomPathsBothSizes<ns::Avx2>(ns::Simd::Avx2); }
TEST(NsKernels, Avx512MatchesSetReference) { randomPathsBothSizes<ns::Avx512>(ns::Simd::Avx512); }
#endif

TEST(NsKernels, RootAndItsDescendants) {
  using M = ns::Model<ns::Scalar, 128>;
  const auto root = M::root();
  EXPECT_EQ(root.dec()[0], 1);
  EXPECT_EQ(root.dec()[1], 1);  // 1 is the only generator of N
  EXPECT_EQ(root.dec()[6], 4);  // 0+6, 1+5, 2+4, 3+3
  M::Generator g0({}, root);
  ASSERT_EQ(g0.numChildren, 1);
  const auto s1 = g0.next();  // N \ {1} = <2, 3>
  EXPECT_EQ(s1.c, 2);
  EXPECT_EQ(s1.m, 2);
  EXPECT_EQ(s1.g, 1);
  const int dec1[] = {1, 0, 1, 1, 2, 2, 3};  // 4 = 0+4 = 2+2; 5 = 0+5 = 2+3; 6 = 0+6 = 2+4 = 3+3
  for (int x = 0; x < 7; ++x) EXPECT_EQ(s1.dec()[x], dec1[x]) << "x " << x;
  M::Generator g1({}, s1);
  ASSERT_EQ(g1.numChildren, 2);  // remove 2 or 3: <3, 4, 5> and <2, 5>
  const auto a = g1.next();
  const auto b = g1.next();
  EXPECT_EQ(a.m, 3);
  EXPECT_EQ(a.c, 3);
  EXPECT_EQ(b.m, 2);
  EXPECT_EQ(b.c, 4);
  EXPECT_EQ(b.dec()[3], 0);
  EXPECT_EQ(b.dec()[5], 1);  // 5 is now a generator
}

}  // namespace
