// Stress: many short distributed searches with random delays (up to 300 µs) injected into every
// rank's comm thread, varying skeleton, workers and seed. Never a hang (the CTest TIMEOUT), never a
// wrong count (OEIS A007323 for ns, the proven omega for maxclique).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dist_runner.hpp"
#include "jackdaw/maxclique/dimacs.hpp"
#include "jackdaw/maxclique/model.hpp"
#include "jackdaw/ns/model.hpp"

using namespace jackdaw;

namespace {

const std::uint64_t kGenus[] = {1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592, 1001, 1693};

TEST(DistributedStress, NsCountsUnderCommDelays) {
  using M = ns::Model<ns::Scalar, 128>;
  constexpr int G = 14;
  constexpr int kRuns = 160;
  SearchParams<long long> p;
  p.maxDepth = G;
  p.spawnDepth = 4;
  p.backtrackBudget = 20;
  for (int i = 0; i < kRuns; ++i) {
    const disttest::Config c{disttest::kSkeletons[i % 4], 1 + (i / 4) % 2, 300, static_cast<std::uint64_t>(i + 1),
                             i % 8 == 2};
    auto r = disttest::run<M, ns::Kind>(c, {}, M::root(), p);
    if (disttest::rank() != 0) continue;
    for (int g = 0; g <= G; ++g)
      EXPECT_EQ(r.enumerator.get()[g], kGenus[g]) << "run " << i << " " << c.skeleton << " genus " << g;
  }
}

TEST(DistributedStress, MaxCliqueUnderCommDelays) {
  using MC = maxclique::MaxClique<4>;
  const auto space = MC::makeSpace(maxclique::readDimacs(std::string(JACKDAW_INSTANCES) + "/dimacs/hamming6-4.clq"));
  constexpr int kRuns = 60;
  for (int i = 0; i < kRuns; ++i) {
    SearchParams<int> p;
    p.spawnDepth = 2;
    p.backtrackBudget = 10;
    const bool decision = i % 3 == 0;
    const disttest::Config c{disttest::kSkeletons[i % 4], 1 + (i / 4) % 2, 300, static_cast<std::uint64_t>(i + 7)};
    if (decision) {
      p.expectedObjective = 4;  // omega(hamming6-4) = 4, ANSWERS.tsv
      auto r = disttest::run<MC, Decision>(c, space, MC::root(space), p);
      if (disttest::rank() == 0) EXPECT_TRUE(r.found()) << "run " << i << " " << c.skeleton;
    } else {
      auto r = disttest::run<MC, Optimisation>(c, space, MC::root(space), p);
      if (disttest::rank() == 0) EXPECT_EQ(r.objective.value_or(-1), 4) << "run " << i << " " << c.skeleton;
    }
  }
}

}  // namespace
