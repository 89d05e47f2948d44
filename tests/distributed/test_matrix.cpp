// Every rank count × workers {1, 2} × the four skeletons (policy random) gives exactly the
// answers the literature proves: maxclique omegas from instances/dimacs/ANSWERS.tsv (optimisation
// and decision) and ns per-genus counts from OEIS A007323 — the seq search is checked against the
// same numbers. All ranks run every configuration in the same order (the searches are collective);
// only rank 0 holds the combined result, so only rank 0 asserts (EXPECT, never ASSERT: a rank that
// returned early would leave the others waiting in the next collective).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dist_runner.hpp"
#include "jackdaw/maxclique/dimacs.hpp"
#include "jackdaw/maxclique/model.hpp"
#include "jackdaw/ns/model.hpp"
#include "jackdaw/skeletons/seq.hpp"

using namespace jackdaw;

namespace {

struct Graph {
  const char* name;
  int omega;  // ANSWERS.tsv, status proven
};
const Graph kGraphs[] = {{"hamming6-4", 4}, {"MANN_a9", 16}, {"johnson8-4-4", 14}, {"c-fat200-1", 12}};

using MC = maxclique::MaxClique<4>;  // ≤ 256 vertices

MC::Space load(const std::string& name) {
  return MC::makeSpace(maxclique::readDimacs(std::string(JACKDAW_INSTANCES) + "/dimacs/" + name + ".clq"));
}

std::string where(const disttest::Config& c, const std::string& what) {
  return what + " " + c.skeleton + " w" + std::to_string(c.workers) + " ranks " + std::to_string(disttest::size());
}

TEST(DistributedMaxClique, OptimisationMatchesOmega) {
  for (const auto& g : kGraphs) {
    const auto space = load(g.name);
    SearchParams<int> p;
    p.spawnDepth = 2;
    p.backtrackBudget = 50;
    EXPECT_EQ(*seq::search<MC, Optimisation>(space, MC::root(space), p).objective, g.omega) << g.name;
    for (const char* skel : disttest::kSkeletons)
      for (int w : {1, 2}) {
        const disttest::Config c{skel, w};
        auto r = disttest::run<MC, Optimisation>(c, space, MC::root(space), p);
        if (disttest::rank() != 0) continue;
        EXPECT_TRUE(r.objective.has_value()) << where(c, g.name);
        if (!r.objective) continue;
        EXPECT_EQ(*r.objective, g.omega) << where(c, g.name);
        EXPECT_TRUE(r.best.has_value() && r.best->size == g.omega) << where(c, g.name);
      }
  }
}

TEST(DistributedMaxClique, DecisionFindsOmegaNotOmegaPlusOne) {
  for (const auto& g : kGraphs) {
    const auto space = load(g.name);
    for (int target : {g.omega, g.omega + 1}) {
      SearchParams<int> p;
      p.spawnDepth = 2;
      p.backtrackBudget = 50;
      p.expectedObjective = target;
      const bool expectFound = target == g.omega;
      EXPECT_EQ(seq::search<MC, Decision>(space, MC::root(space), p).found(), expectFound) << g.name;
      for (const char* skel : disttest::kSkeletons)
        for (int w : {1, 2}) {
          const disttest::Config c{skel, w};
          auto r = disttest::run<MC, Decision>(c, space, MC::root(space), p);
          if (disttest::rank() != 0) continue;
          EXPECT_EQ(r.found(), expectFound) << where(c, std::string(g.name) + " k=" + std::to_string(target));
          if (expectFound && r.best) EXPECT_EQ(r.best->size, target) << where(c, g.name);
        }
    }
  }
}

// OEIS A007323, genus 0..22.
const std::uint64_t kGenus[] = {1,    1,    2,    4,     7,     12,    23,    39,    67,    118,   204,  343,
                                592,  1001, 1693, 2857,  4806,  8045,  13467, 22464, 37396, 62194, 103246};

TEST(DistributedNs, EveryGenusCount) {
  using M = ns::Model<ns::Scalar, 128>;
  constexpr int G = 22;
  SearchParams<long long> p;
  p.maxDepth = G;
  p.spawnDepth = 3;
  p.backtrackBudget = 100;
  auto ref = seq::search<M, ns::Kind>({}, M::root(), p);
  for (int g = 0; g <= G; ++g) EXPECT_EQ(ref.enumerator.get()[g], kGenus[g]) << "seq genus " << g;
  for (const char* skel : disttest::kSkeletons)
    for (int w : {1, 2}) {
      const disttest::Config c{skel, w};
      auto r = disttest::run<M, ns::Kind>(c, {}, M::root(), p);
      if (disttest::rank() != 0) continue;
      for (int g = 0; g <= G; ++g) EXPECT_EQ(r.enumerator.get()[g], kGenus[g]) << where(c, "genus " + std::to_string(g));
      EXPECT_EQ(r.stats.nodes, ref.stats.nodes) << where(c, "nodes");
    }
}

// stack_stealing with chunked hand-over (half of the shallowest level per steal).
TEST(DistributedNs, ChunkedStackStealing) {
  using M = ns::Model<ns::Scalar, 128>;
  constexpr int G = 20;
  SearchParams<long long> p;
  p.maxDepth = G;
  for (int w : {1, 2}) {
    const disttest::Config c{"stack_stealing", w, 0, 3, true};
    auto r = disttest::run<M, ns::Kind>(c, {}, M::root(), p);
    if (disttest::rank() != 0) continue;
    for (int g = 0; g <= G; ++g) EXPECT_EQ(r.enumerator.get()[g], kGenus[g]) << where(c, "chunked genus " + std::to_string(g));
  }
}

}  // namespace
