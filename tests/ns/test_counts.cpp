// Counts per genus against OEIS A007323 (instances/ns/genus_counts.tsv), for every kernel variant
// this CPU runs and both node sizes.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "jackdaw/ns/dispatch.hpp"
#include "jackdaw/skeletons/seq.hpp"

namespace {

using namespace jackdaw;

struct Known {
  std::map<int, std::uint64_t> count, cumulative;
};

Known readKnown() {
  const std::string path = std::string(JACKDAW_INSTANCES) + "/ns/genus_counts.tsv";
  std::ifstream in(path);
  Known k;
  if (!in) {
    ADD_FAILURE() << "cannot open " << path;
    return k;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("genus", 0) == 0) continue;
    std::istringstream is(line);
    int g;
    std::uint64_t c, cum;
    if (!(is >> g >> c >> cum)) {
      ADD_FAILURE() << path << ": malformed line '" << line << "'";
      continue;
    }
    k.count[g] = c;
    k.cumulative[g] = cum;
  }
  return k;
}

struct Outcome {
  std::vector<std::uint64_t> counts;
  SearchStats stats;
};

Outcome countUpTo(ns::Simd simd, int genus, int forceSize, ns::Space space = {}) {
  return ns::withModel(
      simd, genus,
      [&]<class M>() {
        SearchParams<long long> p;
        p.maxDepth = genus;
        auto r = seq::search<M, ns::Kind>(space, M::root(), p);
        const auto& c = r.enumerator.get();
        return Outcome{{c.begin(), c.begin() + genus + 1}, r.stats};
      },
      forceSize);
}

// With the leaves counted from their parent (the unleaved tree, the default) and with every node
// built: the same counts, nodes, backtracks and depth.
void expectKnown(ns::Simd simd, int genus, int size) {
  static const Known known = readKnown();
  ASSERT_GE(known.count.size(), static_cast<std::size_t>(genus + 1)) << "the TSV lacks genus " << genus;
  const Outcome built = countUpTo(simd, genus, size, {.buildLeaves = true});
  for (const bool buildLeaves : {false, true}) {
    const Outcome o = buildLeaves ? built : countUpTo(simd, genus, size, {.buildLeaves = false});
    const std::string what = std::string(ns::toString(simd)) + " size " + std::to_string(size) +
                             (buildLeaves ? " leaves built" : " leaves counted");
    for (int g = 0; g <= genus; ++g) EXPECT_EQ(o.counts[g], known.count.at(g)) << what << " genus " << g;
    // Every semigroup of genus <= G is one node of the tree, the root N included.
    EXPECT_EQ(o.stats.nodes, known.cumulative.at(genus)) << what;
    EXPECT_EQ(o.stats.maxDepth, static_cast<std::uint64_t>(genus)) << what;
    EXPECT_EQ(o.stats.backtracks, built.stats.backtracks) << what;
  }
}

TEST(NsCounts, Genus0To30EveryVariantSmallNode) {
  for (ns::Simd s : ns::cpuVariants()) expectKnown(s, 30, 128);
}

TEST(NsCounts, Genus0To24EveryVariantLargeNode) {
  for (ns::Simd s : ns::cpuVariants()) expectKnown(s, 24, 256);
}

TEST(NsCounts, EveryDepthLimitGivesThePrefix) {
  // The bulk count at the depth limit must agree with expanding one level further.
  for (int G = 0; G <= 15; ++G) expectKnown(ns::bestSimd(), G, 128);
}

TEST(NsCounts, ThisCpuRunsItsAdvertisedVariants) {
  // Only a sanity check of detection: scalar always, and the best variant is among those run.
  const auto v = ns::cpuVariants();
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v.front(), ns::Simd::Scalar);
  EXPECT_EQ(v.back(), ns::bestSimd());
}

TEST(NsCounts, RejectsGenusOutOfRange) {
  EXPECT_THROW(countUpTo(ns::Simd::Scalar, -1, 0), std::invalid_argument);
  EXPECT_THROW(countUpTo(ns::Simd::Scalar, ns::kMaxGenus + 1, 0), std::invalid_argument);
  EXPECT_THROW(countUpTo(ns::Simd::Scalar, 43, 128), std::invalid_argument);
}

TEST(NsCounts, ParsesVariantNames) {
  EXPECT_EQ(ns::parseSimd("avx2"), ns::Simd::Avx2);
  EXPECT_EQ(ns::parseSimd("scalar"), ns::Simd::Scalar);
  EXPECT_EQ(ns::parseSimd("auto"), ns::bestSimd());
  EXPECT_FALSE(ns::parseSimd("neon").has_value());
}

}  // namespace
