// The apps' models under every skeleton: maxclique (optimisation, decision) against the proven
// omegas of instances/dimacs/ANSWERS.tsv, ns (enumeration) against OEIS A007323
// (instances/ns/genus_counts.tsv), each compared with seq too.
#include <gtest/gtest.h>

#include <string>

#include "jackdaw/maxclique/dimacs.hpp"
#include "jackdaw/maxclique/model.hpp"
#include "jackdaw/ns/model.hpp"
#include "jackdaw/skeletons/seq.hpp"
#include "skeleton_runner.hpp"

using namespace jackdaw;

namespace {

constexpr int kRepeats = 3;

struct Graph {
  const char* name;
  int omega;  // ANSWERS.tsv, status proven
};
const Graph kGraphs[] = {{"hamming6-4", 4}, {"MANN_a9", 16}, {"johnson8-4-4", 14}, {"brock200_2", 12},
                         {"c-fat200-1", 12}};

using MC = maxclique::MaxClique<4>;  // every graph above has at most 256 vertices

MC::Space load(const std::string& name) {
  return MC::makeSpace(maxclique::readDimacs(std::string(JACKDAW_INSTANCES) + "/dimacs/" + name + ".clq"));
}

TEST(AppsMaxClique, OptimisationEverySkeletonMatchesOmega) {
  for (const auto& g : kGraphs) {
    const auto space = load(g.name);
    SearchParams<int> p;
    auto ref = seq::search<MC, Optimisation>(space, MC::root(space), p);
    ASSERT_EQ(*ref.objective, g.omega) << g.name;
    for (const auto& skel : partest::skeletons())
      for (int w : {1, 2, 4})
        for (int rep = 0; rep < kRepeats; ++rep) {
          auto r = partest::run<MC, Optimisation>(skel, w, space, MC::root(space), p, nullptr, nullptr, {2, 50});
          ASSERT_TRUE(r.objective) << g.name << " " << skel << " w" << w;
          ASSERT_EQ(*r.objective, g.omega) << g.name << " " << skel << " w" << w;
          ASSERT_EQ(r.best->size, g.omega);
        }
  }
}

TEST(AppsMaxClique, DecisionEverySkeleton) {
  for (const auto& g : kGraphs) {
    const auto space = load(g.name);
    for (int target : {g.omega, g.omega + 1}) {
      SearchParams<int> p;
      p.expectedObjective = target;
      const bool expectFound = target == g.omega;
      ASSERT_EQ((seq::search<MC, Decision>(space, MC::root(space), p).found()), expectFound);
      for (const auto& skel : partest::skeletons())
        for (int w : {1, 2, 4})
          for (int rep = 0; rep < kRepeats; ++rep) {
            auto r = partest::run<MC, Decision>(skel, w, space, MC::root(space), p, nullptr, nullptr, {2, 50});
            ASSERT_EQ(r.found(), expectFound) << g.name << " k=" << target << " " << skel << " w" << w;
            if (expectFound) {
              ASSERT_EQ(r.best->size, target);
            }
          }
    }
  }
}

TEST(AppsNs, EveryGenusCountEverySkeleton) {
  // OEIS A007323, genus 0..20.
  const std::uint64_t known[] = {1,    1,    2,    4,    7,     12,    23,    39,    67,    118,  204,
                                 343,  592,  1001, 1693, 2857,  4806,  8045,  13467, 22464, 37396};
  using M = ns::Model<ns::Scalar, 128>;
  constexpr int G = 20;
  SearchParams<long long> p;
  p.maxDepth = G;
  auto ref = seq::search<M, ns::Kind>({}, M::root(), p);
  for (int g = 0; g <= G; ++g) ASSERT_EQ(ref.enumerator.get()[g], known[g]) << "seq genus " << g;
  for (const auto& skel : partest::skeletons())
    for (int w : {1, 2, 4})
      for (int rep = 0; rep < kRepeats; ++rep) {
        auto r = partest::run<M, ns::Kind>(skel, w, {}, M::root(), p, nullptr, nullptr, {3, 100});
        for (int g = 0; g <= G; ++g)
          ASSERT_EQ(r.enumerator.get()[g], known[g]) << skel << " w" << w << " genus " << g;
        ASSERT_EQ(r.stats.nodes, ref.stats.nodes) << skel << " w" << w;
      }
}

}  // namespace
