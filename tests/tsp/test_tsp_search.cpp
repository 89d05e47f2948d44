// TSP branch and bound: published optima, and agreement with an independent Held-Karp DP.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "jackdaw/skeletons/seq.hpp"
#include "jackdaw/tsp/greedy.hpp"
#include "jackdaw/tsp/model.hpp"
#include "jackdaw/tsp/tsplib.hpp"

namespace tsp = jackdaw::tsp;

namespace {

struct Solved {
  long long length;
  std::vector<int> tour;
};

// Solve as the app does: greedy tour first, the search only records strictly shorter tours.
Solved solve(const tsp::Instance& inst, bool greedyBound) {
  const auto greedy = tsp::greedyTour(inst);
  const long long g = inst.tourLength(greedy);
  const auto space = tsp::makeSpace(inst, g);
  jackdaw::SearchParams<long long> params;
  if (greedyBound) params.initialBound = g;
  auto r = jackdaw::seq::search<tsp::TspModel, jackdaw::Optimisation>(space, tsp::rootNode(space), params);
  EXPECT_TRUE(r.complete());
  if (!r.best) return {g, greedy};
  EXPECT_LT(*r.objective, greedyBound ? g : tsp::kNoTour);
  return {*r.objective, std::vector<int>(r.best->path.begin(), r.best->path.end())};
}

void expectValidTour(const tsp::Instance& inst, const Solved& s) {
  auto sorted = s.tour;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < inst.n; ++i) ASSERT_EQ(sorted[i], i);
  EXPECT_EQ(inst.tourLength(s.tour), s.length);
}

long long heldKarp(const tsp::Instance& in) {
  const int n = in.n, full = 1 << (n - 1);
  const long long inf = 1LL << 60;
  std::vector<long long> dp(static_cast<std::size_t>(full) * n, inf);  // subset of 1..n-1, end city
  for (int j = 1; j < n; ++j) dp[(1 << (j - 1)) * n + j] = in.d(0, j);
  for (int s = 1; s < full; ++s)
    for (int j = 1; j < n; ++j) {
      const long long cur = dp[static_cast<std::size_t>(s) * n + j];
      if (cur >= inf || !(s >> (j - 1) & 1)) continue;
      for (int k = 1; k < n; ++k)
        if (!(s >> (k - 1) & 1)) {
          auto& nx = dp[static_cast<std::size_t>(s | 1 << (k - 1)) * n + k];
          nx = std::min(nx, cur + in.d(j, k));
        }
    }
  long long best = inf;
  for (int j = 1; j < n; ++j) best = std::min(best, dp[static_cast<std::size_t>(full - 1) * n + j] + in.d(j, 0));
  return best;
}

std::string inst(const std::string& name) { return std::string(JACKDAW_INSTANCES) + "/tsp/" + name + ".tsp"; }

}  // namespace

class TspKnownOptimum : public ::testing::TestWithParam<std::tuple<std::string, long long, bool>> {};

TEST_P(TspKnownOptimum, FindsThePublishedOptimum) {
  const auto& [name, optimum, greedyBound] = GetParam();
  const auto in = tsp::readTsplib(inst(name));
  const auto s = solve(in, greedyBound);
  EXPECT_EQ(s.length, optimum);
  expectValidTour(in, s);
}

// Optima from TSPLIB95 (instances/tsp/ANSWERS.tsv). Without the greedy bound the search has to
// find every improvement itself, which also exercises the objective and the tour it records.
INSTANTIATE_TEST_SUITE_P(
    Tsplib, TspKnownOptimum,
    ::testing::Values(std::make_tuple("burma14", 3323LL, true), std::make_tuple("burma14", 3323LL, false),
                      std::make_tuple("ulysses16", 6859LL, true), std::make_tuple("ulysses16", 6859LL, false),
                      std::make_tuple("gr17", 2085LL, true), std::make_tuple("gr17", 2085LL, false),
                      std::make_tuple("ulysses22", 7013LL, true), std::make_tuple("ulysses22", 7013LL, false),
                      std::make_tuple("dantzig42", 699LL, false), std::make_tuple("swiss42", 1273LL, false)),
    [](const auto& info) {
      return std::get<0>(info.param) + (std::get<2>(info.param) ? "_greedy" : "_nobound");
    });

TEST(TspRandom, AgreesWithHeldKarp) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 30; ++trial) {
    tsp::Instance in;
    in.n = 5 + trial % 7;  // 5..11 cities
    in.dist.assign(in.n * in.n, 0);
    std::uniform_int_distribution<int> w(1, trial % 2 ? 20 : 1000);  // small weights: many ties
    for (int i = 0; i < in.n; ++i)
      for (int j = i + 1; j < in.n; ++j) in.dist[i * in.n + j] = in.dist[j * in.n + i] = w(rng);
    const long long exact = heldKarp(in);
    for (bool greedyBound : {true, false}) {
      const auto s = solve(in, greedyBound);
      EXPECT_EQ(s.length, exact) << "trial " << trial;
      expectValidTour(in, s);
    }
  }
}

TEST(TspBound, RootBoundIsAdmissible) {
  for (const std::string name : {"burma14", "ulysses22", "dantzig42", "eil51"}) {
    const auto in = tsp::readTsplib(inst(name));
    const auto space = tsp::makeSpace(in, in.tourLength(tsp::greedyTour(in)));
    const long long opt = name == "burma14" ? 3323 : name == "ulysses22" ? 7013 : name == "dantzig42" ? 699 : 426;
    const long long lb = tsp::lowerBound(space, tsp::rootNode(space));
    EXPECT_LE(lb, opt) << name;
    EXPECT_GE(lb, opt * 9 / 10) << name << ": the Held-Karp root bound should be within 10%";
  }
}
