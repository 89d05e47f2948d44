// The engine without MPI: this binary links only Jackdaw::search (core + single-node skeletons),
// runs every skeleton in the table on toy models with known answers, and checks that no MPI
// library is loaded into it. (engine.no_libmpi checks its dynamic dependencies with ldd too.)
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "../core/toy_models.hpp"
#include "jackdaw/skeletons/table.hpp"

using namespace jackdaw;

namespace {
skeletons::Settings twoWorkers() {
  skeletons::Settings s;
  s.parallel.runtime.threads = 2;
  s.spawnDepth = 3;
  s.budget = 20;
  return s;
}
}  // namespace

TEST(MpiFree, EverySkeletonCountsTheBinaryTree) {
  SearchParams<long long> p;
  p.maxDepth = 12;
  for (const auto& name : skeletons::names()) {
    StopFlag stop;
    auto s = twoWorkers();
    if (!skeletons::isParallel(name)) s.parallel.runtime.threads = 1;
    auto r = skeletons::run<toy::BinaryTree, Enumeration<CountNodes>>(name, {}, {}, p, stop, s);
    EXPECT_EQ(r.enumerator.get(), (std::uint64_t{1} << 13) - 1) << name;
    EXPECT_TRUE(r.complete()) << name;
  }
}

TEST(MpiFree, EverySkeletonCountsAndDecidesQueens) {
  for (const auto& name : skeletons::names()) {
    StopFlag a, b, c;
    auto r = skeletons::run<toy::Queens, Enumeration<toy::CountSolutions>>(name, {8}, {}, SearchParams<int>{}, a,
                                                                             twoWorkers());
    EXPECT_EQ(r.enumerator.get(), 92u) << name;  // OEIS A000170
    SearchParams<int> yes, no;
    yes.expectedObjective = 8;
    EXPECT_TRUE((skeletons::run<toy::Queens, Decision>(name, {8}, {}, yes, b, twoWorkers()).found())) << name;
    no.expectedObjective = 3;  // the 3-queens problem has no solution (A000170: 0)
    EXPECT_FALSE((skeletons::run<toy::Queens, Decision>(name, {3}, {}, no, c, twoWorkers()).found())) << name;
  }
}

// An enumerator may read the Space: here the board size decides which nodes are solutions.
struct FullBoards {
  std::uint64_t n = 0;
  void accumulate(const toy::Queens::Space& s, const toy::Queens::Node& q) { n += q.row == s.n; }
  void combine(const FullBoards& o) { n += o.n; }
  std::uint64_t get() const { return n; }
};

TEST(MpiFree, EnumeratorSeesTheSpace) {
  for (const auto& name : skeletons::names()) {
    StopFlag stop;
    auto r = skeletons::run<toy::Queens, Enumeration<FullBoards>>(name, {8}, {}, SearchParams<int>{}, stop,
                                                                   twoWorkers());
    EXPECT_EQ(r.enumerator.get(), 92u) << name;  // OEIS A000170
  }
}

// A program that names its skeletons compiles and runs only those; another name is refused with
// the list it was built with.
TEST(MpiFree, OnlyTheNamedSkeletons) {
  using Table = skeletons::Only<skeletons::Budget>;
  EXPECT_EQ(skeletons::names<Table>(), std::vector<std::string>{"budget"});
  SearchParams<long long> p;
  p.maxDepth = 12;
  StopFlag a, b;
  auto r = skeletons::run<toy::BinaryTree, Enumeration<CountNodes>, Table>("budget", {}, {}, p, a, twoWorkers());
  EXPECT_EQ(r.enumerator.get(), (std::uint64_t{1} << 13) - 1);
  try {
    skeletons::run<toy::BinaryTree, Enumeration<CountNodes>, Table>("depth_bounded", {}, {}, p, b, twoWorkers());
    ADD_FAILURE() << "depth_bounded ran in a program built with budget only";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("built with: budget"), std::string::npos) << e.what();
  }
}

TEST(MpiFree, UnknownSkeletonIsAnError) {
  StopFlag stop;
  EXPECT_THROW((skeletons::run<toy::BinaryTree, Enumeration<CountNodes>>("nope", {}, {}, {}, stop, twoWorkers())),
               std::invalid_argument);
}

TEST(MpiFree, NoMpiLibraryInThisProcess) {
  std::ifstream maps("/proc/self/maps");
  ASSERT_TRUE(maps) << "cannot read /proc/self/maps";
  std::string line;
  bool sawTbb = false;
  while (std::getline(maps, line)) {
    EXPECT_EQ(line.find("libmpi"), std::string::npos) << line;
    sawTbb |= line.find("libtbb") != std::string::npos;
  }
  EXPECT_TRUE(sawTbb) << "the maps were read but oneTBB is not among them: the check sees nothing";
}
