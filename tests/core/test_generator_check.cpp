// The generator contract in a checked build (this file is compiled with JACKDAW_CHECK_MODELS=1):
// a numChildren that over-counts, under-counts or changes after construction stops the search
// with an error naming the model, on seq and every parallel skeleton; a correct model gives its
// known answer with the checks on. The unchecked run of the over-counting model shows what the
// check prevents: a wrong count and no error.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "jackdaw/core/enumerators.hpp"
#include "jackdaw/skeletons/table.hpp"

using namespace jackdaw;

static_assert(kCheckModels, "this test must be compiled with JACKDAW_CHECK_MODELS=1");

namespace {

// Binary strings of length <= 10 with no two adjacent ones (Fibonacci: F(n+2) strings of length
// n), generated with the filter written twice: once to count, once in next(), the pattern that
// lets a count and its generator disagree. Skew picks the mistake.
enum class Skew { None, OverCount, UnderCount, Shrinks };

template <Skew S>
struct NoAdjacentOnes {
  struct Space { int length = 10; };
  struct Node {
    int len = 0;
    bool lastOne = false;
  };
  struct Generator {
    Generator(const Space& s, const Node& p) : parent(p) {
      if (p.len < s.length) numChildren = p.lastOne ? 1 : 2;  // append 0, or 0 and 1
      if constexpr (S == Skew::OverCount) if (p.len == 3 && numChildren == 1) numChildren = 2;
      if constexpr (S == Skew::UnderCount) if (p.len == 4 && numChildren == 2) numChildren = 1;
    }
    bool hasNext() const { return taken < (parent.lastOne ? 1 : 2) && parent.len < 10; }
    Node next() {
      if constexpr (S == Skew::Shrinks) --numChildren;
      // Past its end this generator repeats its last child: an over-count is silently counted.
      const bool one = !parent.lastOne && taken >= 1;
      ++taken;
      return {parent.len + 1, one};
    }
    const Node& parent;
    std::size_t numChildren = 0;
    int taken = 0;
  };
};

// Strings of length exactly 10: F(12) = 144.
struct FullLength {
  std::uint64_t n = 0;
  template <class Space, class Node>
  void accumulate(const Space& s, const Node& x) { n += x.len == s.length; }
  void combine(const FullLength& o) { n += o.n; }
  std::uint64_t get() const { return n; }
};

// The same strings, with a generator that also counts its next child's children without building
// it (the engine then counts the last two levels in bulk); Lies makes that count always 2.
template <bool Lies>
struct TwoLevels {
  using Base = NoAdjacentOnes<Skew::None>;
  using Space = Base::Space;
  using Node = Base::Node;
  struct Generator : Base::Generator {
    Generator(const Space& s, const Node& p) : Base::Generator(s, p), space(s) {}
    std::size_t countChildrenOfNext() {
      const Node c = next();
      return Lies ? 2 : Base::Generator(space, c).numChildren;
    }
    const Space& space;
  };
};

// The same strings, with a generator that drops its leaf children (DropsLeaves); Lies makes it
// drop a child that has children (at length 3, which always has one).
template <bool Lies>
struct LeafDropper {
  using Base = NoAdjacentOnes<Skew::None>;
  using Space = Base::Space;
  using Node = Base::Node;
  struct Generator : Base::Generator {
    Generator(const Space& s, const Node& p) : Base::Generator(s, p), length(s.length) {}
    // Only the strings of full length are leaves; their parents are the strings one shorter.
    std::size_t dropLeaves() {
      if (parent.len + 1 != length && !(Lies && parent.len == 3)) return 0;
      const std::size_t k = numChildren;
      numChildren = 0;
      dropped = true;
      return k;
    }
    bool hasNext() const { return !dropped && Base::Generator::hasNext(); }  // it says what is left
    int length;
    bool dropped = false;
  };
};

// The same strings with an uncounted generator (hasNext() and no numChildren); Flickers makes
// hasNext() answer true then false on every second question at length 4 (a state it should not
// change), which the checked build catches.
template <bool Flickers>
struct Uncounted {
  using Base = NoAdjacentOnes<Skew::None>;
  using Space = Base::Space;
  using Node = Base::Node;
  struct Generator {
    Generator(const Space& s, const Node& p) : parent(p), length(s.length) {}
    bool hasNext() const {
      if (Flickers && parent.len == 4 && (asked++ % 2) == 1) return false;
      return parent.len < length && taken < (parent.lastOne ? 1 : 2);
    }
    Node next() {
      const bool one = !parent.lastOne && taken >= 1;  // 0 first, then 1
      ++taken;
      return {parent.len + 1, one};
    }
    const Node& parent;
    int length;
    int taken = 0;
    mutable int asked = 0;
  };
};

skeletons::Settings twoWorkers(const std::string& name) {
  skeletons::Settings s;
  s.parallel.runtime.threads = skeletons::isParallel(name) ? 2 : 1;
  s.spawnDepth = 2;
  s.budget = 5;
  return s;
}

// What a search of model M (kind K) on this skeleton throws; empty if it does not.
template <class M, class K = Enumeration<FullLength>>
std::string failureOf(const std::string& skeleton, const SearchParams<long long>& p = {}) {
  StopFlag stop;
  try {
    skeletons::run<M, K>(skeleton, {}, {}, p, stop, twoWorkers(skeleton));
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

template <Skew S>
std::string failure(const std::string& skeleton) {
  return failureOf<NoAdjacentOnes<S>>(skeleton);
}

}  // namespace

TEST(GeneratorCheck, CorrectModelPassesEverySkeleton) {
  for (const auto& name : skeletons::names()) {
    StopFlag stop;
    auto r = skeletons::run<NoAdjacentOnes<Skew::None>, Enumeration<FullLength>>(name, {}, {}, {}, stop,
                                                                                 twoWorkers(name));
    EXPECT_EQ(r.enumerator.get(), 144u) << name;  // F(12)
  }
}

TEST(GeneratorCheck, OverCountFailsNamingTheModel) {
  for (const auto& name : skeletons::names()) {
    const auto what = failure<Skew::OverCount>(name);
    EXPECT_NE(what.find("NoAdjacentOnes"), std::string::npos) << name << ": " << what;
    EXPECT_NE(what.find("numChildren over-counts"), std::string::npos) << name << ": " << what;
  }
}

TEST(GeneratorCheck, UnderCountFailsNamingTheModel) {
  for (const auto& name : skeletons::names()) {
    const auto what = failure<Skew::UnderCount>(name);
    EXPECT_NE(what.find("NoAdjacentOnes"), std::string::npos) << name << ": " << what;
    EXPECT_NE(what.find("numChildren under-counts"), std::string::npos) << name << ": " << what;
  }
}

TEST(GeneratorCheck, NumChildrenChangedFails) {
  for (const auto& name : skeletons::names()) {
    const auto what = failure<Skew::Shrinks>(name);
    EXPECT_NE(what.find("numChildren changed from 2 to 1"), std::string::npos) << name << ": " << what;
  }
}

TEST(GeneratorCheck, ChildCountOfNextIsChecked) {
  static_assert(NodeRules<TwoLevels<false>, Enumeration<CountNodes>>::countsTwoLevels);
  SearchParams<long long> p;
  p.maxDepth = 10;
  for (const auto& name : skeletons::names()) {
    StopFlag stop;
    // Strings of length <= 10: F(2) + ... + F(12) = 375.
    auto r = skeletons::run<TwoLevels<false>, Enumeration<CountNodes>>(name, {}, {}, p, stop, twoWorkers(name));
    EXPECT_EQ(r.enumerator.get(), 375u) << name;
    EXPECT_EQ(r.stats.nodes, 375u) << name;
    const std::string what = failureOf<TwoLevels<true>, Enumeration<CountNodes>>(name, p);
    EXPECT_NE(what.find("TwoLevels"), std::string::npos) << name << ": " << what;
    EXPECT_NE(what.find("countChildrenOfNext() = 2"), std::string::npos) << name << ": " << what;
  }
}

TEST(GeneratorCheck, DroppedLeavesAreChecked) {
  for (const auto& name : skeletons::names()) {
    StopFlag stop;
    // Strings of length <= 10: F(2) + ... + F(12) = 375, those of length 10 dropped and counted.
    auto r = skeletons::run<LeafDropper<false>, Enumeration<CountNodes>>(name, {}, {}, {}, stop, twoWorkers(name));
    EXPECT_EQ(r.enumerator.get(), 375u) << name;
    EXPECT_EQ(r.stats.nodes, 375u) << name;
    const std::string what = failureOf<LeafDropper<true>, Enumeration<CountNodes>>(name);
    EXPECT_NE(what.find("LeafDropper"), std::string::npos) << name << ": " << what;
    EXPECT_NE(what.find("dropLeaves() dropped"), std::string::npos) << name << ": " << what;
  }
}

TEST(GeneratorCheck, UncountedGeneratorMustAnswerTheSameTwice) {
  for (const auto& name : skeletons::names()) {
    StopFlag stop;
    auto r = skeletons::run<Uncounted<false>, Enumeration<FullLength>>(name, {}, {}, {}, stop, twoWorkers(name));
    EXPECT_EQ(r.enumerator.get(), 144u) << name;  // F(12)
    const std::string what = failureOf<Uncounted<true>, Enumeration<FullLength>>(name);
    EXPECT_NE(what.find("Uncounted"), std::string::npos) << name << ": " << what;
    EXPECT_NE(what.find("hasNext() said true and then false"), std::string::npos) << name << ": " << what;
  }
}
