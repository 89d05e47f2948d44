// Stop reasons tell the truth: a reason only rises (found beats interrupted, failed beats both);
// an interruption that cut nothing short leaves the result whole, one that did marks it partial;
// a throwing model fails the search with its message, on every skeleton, without hanging.
#include <gtest/gtest.h>

#include <bit>
#include <stdexcept>

#include "../parallel/skeleton_runner.hpp"
#include "jackdaw/core/errors.hpp"

using namespace jackdaw;

namespace {

// Complete binary tree of depth kDepth; the objective is the number of right turns, so the only
// node reaching kDepth is the rightmost leaf. The test hooks below act on chosen nodes.
constexpr int kDepth = 12;
constexpr std::uint64_t kNodes = (std::uint64_t{1} << (kDepth + 1)) - 1;
StopFlag* gStop = nullptr;           // the search's stop flag, for the hooks
std::uint64_t gInterruptAtCount = 0; // Count: request Interrupted when a worker has counted this many
bool gInterruptAtSolution = false;   // getObj: request Interrupted when it sees the solution
bool gThrowAtSolution = false;       // getObj / accumulate: throw at the rightmost leaf

struct Tree {
  struct Space {};
  struct Node {
    int depth = 0;
    std::uint64_t path = 0;
    bool rightmostLeaf() const { return depth == kDepth && std::popcount(path) == kDepth; }
    int getObj() const {
      if (rightmostLeaf() && gInterruptAtSolution) gStop->request(StopReason::Interrupted);
      if (rightmostLeaf() && gThrowAtSolution) throw std::runtime_error("objective exploded");
      return std::popcount(path);
    }
  };
  struct Generator {
    Generator(const Space&, const Node& p) : parent(p), numChildren(p.depth < kDepth ? 2 : 0) {}
    const Node& parent;
    int numChildren;
    int i = 0;
    Node next() { return {parent.depth + 1, (parent.path << 1) | static_cast<std::uint64_t>(i++)}; }
  };
};

struct Count {
  std::uint64_t count = 0;
  void accumulate(const Tree::Node& n) {
    if (gThrowAtSolution && n.rightmostLeaf()) throw std::runtime_error("enumerator exploded");
    if (++count == gInterruptAtCount) gStop->request(StopReason::Interrupted);
  }
  void combine(const Count& o) { count += o.count; }
  std::uint64_t get() const { return count; }
};
using K = Enumeration<Count>;

struct Hooks : testing::Test {
  void TearDown() override {
    gStop = nullptr;
    gInterruptAtCount = 0;
    gInterruptAtSolution = gThrowAtSolution = false;
  }
};
using StopTruth = Hooks;

std::vector<std::string> everySkeleton() {
  std::vector<std::string> v{"seq"};
  for (const auto& s : partest::skeletons()) v.push_back(s);
  return v;
}

template <class Kind>
SearchResult<Tree, Kind> runNamed(const std::string& skel, int workers, const SearchParams<int>& p, StopFlag& stop) {
  if (skel == "seq") return seq::search<Tree, Kind>({}, {}, p, stop);
  return partest::run<Tree, Kind>(skel, workers, {}, {}, p, nullptr, &stop);
}

}  // namespace

TEST(StopFlag, ReasonsOnlyRise) {
  StopFlag f;
  EXPECT_FALSE(f.requested());
  EXPECT_TRUE(f.request(StopReason::Interrupted));
  EXPECT_EQ(f.reason(), StopReason::Interrupted);
  EXPECT_TRUE(f.request(StopReason::Found));  // a found answer beats an interruption
  EXPECT_FALSE(f.request(StopReason::Interrupted));
  EXPECT_EQ(f.reason(), StopReason::Found);
  EXPECT_TRUE(f.request(StopReason::Failed));
  EXPECT_FALSE(f.request(StopReason::Found));
  EXPECT_EQ(f.reason(), StopReason::Failed);
}

// One worker counts every node; the interruption arrives at the very last one: nothing was cut
// short, so the count is whole and not labelled partial. Arriving earlier, it is partial.
TEST_F(StopTruth, InterruptionAfterTheLastNodeLeavesTheResultWhole) {
  for (const auto& skel : everySkeleton()) {
    for (std::uint64_t at : {kNodes, kNodes / 3}) {
      StopFlag stop;
      gStop = &stop;
      gInterruptAtCount = at;
      const auto r = runNamed<K>(skel, 1, {}, stop);
      if (at == kNodes) {
        EXPECT_EQ(r.enumerator.get(), kNodes) << skel;
        EXPECT_TRUE(r.complete()) << skel << ": a whole count labelled partial";
        EXPECT_EQ(r.stop, StopReason::None) << skel;
      } else {
        EXPECT_LT(r.enumerator.get(), kNodes) << skel;
        EXPECT_FALSE(r.complete()) << skel << ": a cut-short count labelled whole";
        EXPECT_EQ(r.stop, StopReason::Interrupted) << skel;
      }
    }
  }
}

// The decision's solution and an interruption arrive together: the answer is found, and whole.
TEST_F(StopTruth, FoundBeatsInterrupted) {
  for (const auto& skel : everySkeleton()) {
    for (int w : {1, 2}) {
      StopFlag stop;
      gStop = &stop;
      gInterruptAtSolution = true;
      SearchParams<int> p;
      p.expectedObjective = kDepth;
      const auto r = runNamed<Decision>(skel, w, p, stop);
      ASSERT_TRUE(r.found()) << skel;
      EXPECT_EQ(r.stop, StopReason::Found) << skel << " w" << w;
      EXPECT_TRUE(r.complete()) << skel;
      if (skel == "seq") break;
    }
  }
}

// Model code throws on a worker: every parallel skeleton stops and reports it (no hang: the
// test's timeout would fail it); seq lets the exception through.
TEST_F(StopTruth, ThrowingModelFailsTheSearchWithItsMessage) {
  for (const auto& skel : partest::skeletons()) {
    for (int w : {1, 2, 4}) {
      gThrowAtSolution = true;
      StopFlag a, b;
      try {
        runNamed<K>(skel, w, {}, a);
        ADD_FAILURE() << skel << " w" << w << ": no exception";
      } catch (const SearchFailed& e) {
        EXPECT_NE(std::string(e.what()).find("enumerator exploded"), std::string::npos) << e.what();
      }
      EXPECT_EQ(a.reason(), StopReason::Failed);
      SearchParams<int> p;
      EXPECT_THROW(runNamed<Optimisation>(skel, w, p, b), SearchFailed) << skel << " w" << w;
    }
  }
  gThrowAtSolution = true;
  StopFlag s;
  EXPECT_THROW(runNamed<K>("seq", 1, {}, s), std::runtime_error);
}
