#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/knapsack/model.hpp"
#include "jackdaw/knapsack/reader.hpp"
#include "jackdaw/skeletons/seq.hpp"

using namespace jackdaw;

namespace {

const std::string kDir = std::string(JACKDAW_INSTANCES) + "/knapsack/";

struct Answer {
  std::string file, instance;
  double optimum;
};

// Rows of instances/knapsack/ANSWERS.tsv whose file starts with `prefix`.
std::vector<Answer> answers(const std::string& prefix) {
  std::ifstream in(kDir + "ANSWERS.tsv");
  EXPECT_TRUE(in) << "cannot open ANSWERS.tsv";
  std::vector<Answer> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("file\t", 0) == 0) continue;
    std::istringstream s(line);
    std::string file, inst, n, cap, opt;
    std::getline(s, file, '\t');
    std::getline(s, inst, '\t');
    std::getline(s, n, '\t');
    std::getline(s, cap, '\t');
    std::getline(s, opt, '\t');
    if (file.rfind(prefix, 0) == 0) out.push_back({file, inst, std::stod(opt)});
  }
  return out;
}

// Strongly correlated instances this simple B&B does not finish within 10 s sequentially
// (measured: each still running at a 10 s timeout); benchmark material, not unit tests.
const std::set<std::string> kSkipped = {"knapPI_3_2000_1000_1", "knapPI_3_5000_1000_1", "knapPI_3_10000_1000_1"};

struct Solved {
  double profit;
  std::vector<long long> labels;
};

Solved solve(const knapsack::Instance& inst) {
  const knapsack::Space s(inst);
  auto r = seq::search<knapsack::Model, Optimisation>(s, s.root(), {});
  EXPECT_TRUE(r.complete());
  if (!r.best) return {0, {}};
  return {r.best->profit, s.labels(*r.best)};
}

// The chosen items, recomputed from the file's data: distinct, within capacity, summing to the profit.
void expectFeasible(const knapsack::Instance& inst, const Solved& sol) {
  double p = 0, w = 0;
  std::set<long long> seen;
  for (long long label : sol.labels) {
    EXPECT_TRUE(seen.insert(label).second) << "item " << label << " twice";
    auto it = std::find_if(inst.items.begin(), inst.items.end(), [&](const auto& x) { return x.label == label; });
    ASSERT_NE(it, inst.items.end()) << "no item " << label;
    p += it->profit;
    w += it->weight;
  }
  EXPECT_LE(w, inst.capacity + 1e-9);
  EXPECT_NEAR(p, sol.profit, 1e-6);
}

void checkAll(const std::string& prefix, std::size_t expectedRows) {
  const auto rows = answers(prefix);
  EXPECT_EQ(rows.size(), expectedRows) << prefix;
  for (const auto& a : rows) {
    if (kSkipped.count(a.instance)) continue;
    SCOPED_TRACE(a.file + " " + a.instance);
    const bool csv = a.file.ends_with(".csv");
    const auto inst = knapsack::readInstance(kDir + a.file, knapsack::Format::Auto, csv ? a.instance : "");
    if (inst.knownOptimum) {
      EXPECT_EQ(*inst.knownOptimum, a.optimum);  // the reader's z / line 2
    }
    const auto sol = solve(inst);
    // f5 has real data; ANSWERS gives 481.0694, the brute-force optimum 481.069368 rounded.
    EXPECT_NEAR(sol.profit, a.optimum, 5e-5);
    expectFeasible(inst, sol);
  }
}

}  // namespace

// Optima: instances/knapsack/ANSWERS.tsv (each re-checked there by DP or brute force).
TEST(Knapsack, YewParInstance) { checkAll("yewpar/", 1); }
TEST(Knapsack, LowDimensionalIncludingRealValued) { checkAll("instances_01_KP/low-dimensional/", 10); }
TEST(Knapsack, LargeScaleExceptThreeSlowOnes) { checkAll("instances_01_KP/large_scale/", 21); }
TEST(Knapsack, PisingerSmallCoefficients) { checkAll("pisinger/smallcoeff_pisinger/", 200); }
TEST(Knapsack, PisingerLargeCoefficients) { checkAll("pisinger/largecoeff_pisinger/", 200); }

TEST(Knapsack, MatchesDynamicProgrammingOnRandomInstances) {
  // Independent check: textbook DP over capacity on random integer instances (fixed seed).
  std::mt19937 rng(12345);
  for (int round = 0; round < 200; ++round) {
    knapsack::Instance inst;
    const int n = 1 + static_cast<int>(rng() % 25);
    long long total = 0;
    for (int i = 0; i < n; ++i) {
      const double w = static_cast<double>(rng() % 60), p = static_cast<double>(rng() % 100);
      inst.items.push_back({p, w, i + 1});
      total += static_cast<long long>(w);
    }
    inst.capacity = static_cast<double>(rng() % (total + 1));
    std::vector<long long> dp(static_cast<std::size_t>(inst.capacity) + 1, 0);
    for (const auto& it : inst.items)
      for (long long c = static_cast<long long>(inst.capacity); c >= static_cast<long long>(it.weight); --c)
        dp[c] = std::max(dp[c], dp[c - static_cast<long long>(it.weight)] + static_cast<long long>(it.profit));
    const auto sol = solve(inst);
    ASSERT_EQ(static_cast<long long>(sol.profit), dp.back()) << "round " << round;
    expectFeasible(inst, sol);
  }
}

TEST(KnapsackReader, DetectsEachFormat) {
  auto y = knapsack::readInstance(kDir + "yewpar/knapsackTest1.kp");
  EXPECT_EQ(y.items.size(), 20u);
  EXPECT_EQ(y.capacity, 6239);
  auto k = knapsack::readInstance(kDir + "instances_01_KP/large_scale/knapPI_1_100_1000_1");
  EXPECT_EQ(k.items.size(), 100u);  // the trailing solution vector is not an item
  EXPECT_FALSE(k.knownOptimum);
  auto p = knapsack::readInstance(kDir + "pisinger/smallcoeff_pisinger/knapPI_1_50_1000.csv", knapsack::Format::Auto,
                                  "knapPI_1_50_1000_2");
  EXPECT_EQ(p.name, "knapPI_1_50_1000_2");
  EXPECT_EQ(p.items.size(), 50u);
  EXPECT_EQ(p.capacity, 997);
}

namespace {
std::string errorOf(const std::string& file, knapsack::Format f = knapsack::Format::Auto, const std::string& inst = "") {
  try {
    knapsack::readInstance(file, f, inst);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
const std::string kBad = std::string(JACKDAW_TEST_DATA) + "/";
}  // namespace

TEST(KnapsackReader, ErrorsNameFileAndLine) {
  EXPECT_EQ(errorOf(kBad + "bad_number.kp"), kBad + "bad_number.kp:4: expected a number for weight, found 'x7'");
  EXPECT_EQ(errorOf(kBad + "short_items.txt"), kBad + "short_items.txt:3: file ends after 2 items, header says 4");
  EXPECT_EQ(errorOf(kBad + "trailing_junk.txt"),
            kBad + "trailing_junk.txt:6: unexpected data after the 4 items of the header");
  EXPECT_EQ(errorOf(kBad + "bad_block.csv", knapsack::Format::Auto, "inst_b"),
            kBad + "bad_block.csv:13: expected 'z <value>', found 'q 7'");
  EXPECT_EQ(errorOf(kBad + "negative_weight.kp"), kBad + "negative_weight.kp:3: weight must not be negative, found '-3'");
  EXPECT_NE(errorOf(kBad + "no_such_file.kp").find("cannot open knapsack file"), std::string::npos);
  const std::string csv = kDir + "pisinger/smallcoeff_pisinger/knapPI_1_50_1000.csv";
  EXPECT_EQ(errorOf(csv, knapsack::Format::Auto, "nope"), csv + ": no instance named 'nope' (first is 'knapPI_1_50_1000_1')");
  EXPECT_EQ(errorOf(kBad + "bad_number.kp", knapsack::Format::Kp01, "x"),
            "--instance applies only to Pisinger CSV files ('" + kBad + "bad_number.kp' is not one)");
}

// Dantzig's bound in floating point: 39 + 285 * (11 / 15) is 247.99999999999997, which floored to 247
// would cut the optimum 248 (items {39, 2} and {209, 11} at capacity 13, under the incumbent {247, 12}).
// So the bound of whole-number data is computed in integers; here against DP on random instances
// made of density ties (profit = density * weight), where the LP bound is often a whole number.
TEST(Knapsack, BoundIsExactWhenTheLpBoundIsWhole) {
  knapsack::Instance four;
  four.capacity = 13;
  four.items = {{247, 12, 1}, {39, 2, 2}, {285, 15, 3}, {209, 11, 4}};
  EXPECT_EQ(solve(four).profit, 248);

  std::mt19937 rng(2024);
  for (int round = 0; round < 300; ++round) {
    knapsack::Instance inst;
    const int n = 2 + static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) {
      const double w = 1 + static_cast<double>(rng() % 30), density = std::vector<double>{3, 7, 9, 19}[rng() % 4];
      inst.items.push_back({density * w + static_cast<double>(rng() % 3), w, i + 1});
    }
    inst.capacity = static_cast<double>(5 + rng() % 80);
    std::vector<long long> dp(static_cast<std::size_t>(inst.capacity) + 1, 0);
    for (const auto& it : inst.items)
      for (long long c = static_cast<long long>(inst.capacity); c >= static_cast<long long>(it.weight); --c)
        dp[c] = std::max(dp[c], dp[c - static_cast<long long>(it.weight)] + static_cast<long long>(it.profit));
    const auto sol = solve(inst);
    ASSERT_EQ(static_cast<long long>(sol.profit), dp.back()) << "round " << round;
    expectFeasible(inst, sol);
  }
}

namespace {
std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + std::to_string(::getpid()) + "-" + name;
  std::ofstream(path) << text;
  return path;
}
}  // namespace

// Every number a double carries exactly, and no more: 2^53 - 1 is read; 2^53 + 1 (which a double
// would round to 2^53) and beyond are refused naming the field; the profits' sum has the same limit.
TEST(KnapsackReader, NumbersBelowTwoToThe53) {
  const auto ok = knapsack::readInstance(writeTemp("k53.kp", "9007199254740991\n0\n9007199254740991 9007199254740991\n"));
  EXPECT_EQ(ok.items[0].profit, 9007199254740991.0);
  EXPECT_EQ(ok.capacity, 9007199254740991.0);
  const auto err = [](const std::string& name, const std::string& text, knapsack::Format f = knapsack::Format::Auto) {
    return errorOf(writeTemp(name, text), f);
  };
  EXPECT_NE(err("kp1.kp", "10\n0\n9007199254740993 1\n").find("kp1.kp:3: profit 9007199254740993 is above 9007199254740991"),
            std::string::npos);
  EXPECT_NE(err("kp2.kp", "10\n0\n9007199254740992 1\n").find("kp2.kp:3: profit 9007199254740992 is above"),
            std::string::npos);
  EXPECT_NE(err("kw.kp", "10\n0\n1 1e300\n").find("kw.kp:3: weight 1e300 is above"), std::string::npos);
  EXPECT_NE(err("kc.kp", "1e20\n0\n1 1\n").find("kc.kp:1: capacity 1e20 is above"), std::string::npos);
  EXPECT_NE(err("kz.kp", "10\n1e17\n1 1\n").find("kz.kp:2: expected optimum 1e17 is above"), std::string::npos);
  EXPECT_NE(err("kn.txt", "nan 10\n", knapsack::Format::Kp01)
                .find("kn.txt:1: expected a number for item count n, found 'nan'"),
            std::string::npos);
  EXPECT_NE(err("kh.txt", "2.5 10\n1 1\n").find("kh.txt:1: item count n must be a whole number, found '2.5'"),
            std::string::npos);
  EXPECT_NE(err("ks.kp", "10\n0\n9007199254740991 1\n2 1\n").find("the profits add up to 9007199254740993"),
            std::string::npos);
  // Real-valued profits are summed in double, against the same limit.
  EXPECT_NE(err("kr.kp", "10\n0\n0.5 1\n9007199254740000 1\n5000.5 1\n").find("the profits add up to about"),
            std::string::npos);
  // -0 is 0.
  EXPECT_EQ(knapsack::readInstance(writeTemp("k0.kp", "10\n0\n-0 1\n")).items[0].profit, 0.0);
}

// The memory an instance would take is checked against the limit before the items are read.
TEST(KnapsackReader, ItemCountBeyondTheMemoryLimit) {
  const auto path = writeTemp("kmem.txt", "100000000 10\n1 1\n");
  try {
    knapsack::readInstance(path, knapsack::Format::Auto, "", 1 << 20);
    FAIL() << "read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("kmem.txt:1: 100000000 items would take about"), std::string::npos)
        << e.what();
  }
}
