// The automatic grain (-b auto, -d auto): the flags, that it really changes the setting, and that
// the answer stays the seq answer (every SkeletonVsSeq test also runs budget_auto and
// depth_bounded_auto, through skeleton_runner.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "../core/toy_models.hpp"
#include "jackdaw/app/options.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "parse_common.hpp"

using namespace jackdaw;

namespace {
app::CommonOptions parse(std::vector<std::string> args) { return partest::parseCommon(std::move(args)); }

// The complete binary tree, each node costing a little work, so that tasks last measurable time.
struct SlowTree : toy::BinaryTree {
  struct Generator : toy::BinaryTree::Generator {
    Generator(const Space& s, const Node& p) : toy::BinaryTree::Generator(s, p) {
      volatile std::uint64_t x = p.path;
      for (int i = 0; i < 200; ++i) x = x * 6364136223846793005ULL + 1;
    }
  };
};
using Count = Enumeration<CountNodes>;
constexpr int kDepth = 16;  // 2^17 - 1 nodes
constexpr std::uint64_t kNodes = (std::uint64_t{1} << (kDepth + 1)) - 1;

// A per-worker counter summed over the workers.
std::uint64_t total(const std::vector<WorkerReport>& ws, std::uint64_t WorkerReport::*field) {
  std::uint64_t n = 0;
  for (const auto& w : ws) n += w.*field;
  return n;
}
}  // namespace

TEST(GrainFlags, BudgetAndSpawnDepthTakeAutoOrANumber) {
  auto o = parse({"-b", "auto"});
  EXPECT_TRUE(o.budgetAuto);
  o = parse({"-b", "500"});
  EXPECT_FALSE(o.budgetAuto);
  EXPECT_EQ(o.budget, 500u);
  o = parse({"-d", "auto", "--task-target-ms", "5"});
  EXPECT_TRUE(o.spawnDepthAuto);
  EXPECT_DOUBLE_EQ(o.taskTargetMs, 5.0);
  o = parse({"-d", "7"});
  EXPECT_FALSE(o.spawnDepthAuto);
  EXPECT_EQ(o.spawnDepth, 7);
  EXPECT_THROW(parse({"-b", "0"}), CLI::ParseError);
  EXPECT_THROW(parse({"-b", "lots"}), CLI::ParseError);
  EXPECT_THROW(parse({"-d", "-1"}), CLI::ParseError);
  EXPECT_THROW(parse({"--task-target-ms", "0"}), CLI::ParseError);
}

TEST(GrainFlags, AutoOnlyWhereItMeansSomething) {
  auto o = parse({"--skeleton", "depth_bounded", "-b", "auto"});
  EXPECT_THROW(app::validate(o), InputError);
  o = parse({"--skeleton", "ordered", "-d", "auto"});
  EXPECT_THROW(app::validate(o), InputError);
  o = parse({"--skeleton", "budget", "-b", "auto", "--trace", "t.jdtrace"});
  EXPECT_THROW(app::validate(o), InputError);
  o = parse({"--skeleton", "budget", "-b", "auto"});
  EXPECT_NO_THROW(app::validate(o));
  o = parse({"--skeleton", "depth_bounded", "-d", "auto"});
  EXPECT_NO_THROW(app::validate(o));
}

// One worker: the budget starts small and is retuned at every split towards the target; the
// count is the tree's.
TEST(AutoBudget, RetunesTowardsTheTarget) {
  budget::Options o;
  o.runtime.threads = 1;
  o.grain = {true, 0.002};
  std::vector<WorkerReport> ws;
  o.workers = &ws;
  SearchParams<long long> p;
  p.maxDepth = kDepth;
  const auto r = budget::search<SlowTree, Count>({}, SlowTree::Node{}, p, o);
  EXPECT_EQ(r.enumerator.get(), kNodes);
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_GT(ws[0].grainChanges, 0u);
  EXPECT_NE(ws[0].grain, detail::AutoGrain::kFirstBudget);
  EXPECT_GE(ws[0].grain, detail::AutoGrain::kMinBudget);
}

// Two workers and a cutoff of 0: fixed, the root is the only task and the second worker never
// works. Automatic, the root task splits once it has run past the target with a worker hungry,
// and the cutoff deepens.
TEST(AutoSpawnDepth, DeepensWhenOneTaskHoldsTheWork) {
  depth_bounded::Options o;
  o.runtime.threads = 2;
  o.spawnDepth = 0;
  o.splitOnHunger = false;  // the automatic cutoff alone (the hunger rule would feed the worker first)
  std::vector<WorkerReport> fixed, automatic;
  SearchParams<long long> p;
  p.maxDepth = kDepth;
  o.workers = &fixed;
  EXPECT_EQ((depth_bounded::search<SlowTree, Count>({}, SlowTree::Node{}, p, o).enumerator.get()), kNodes);
  EXPECT_EQ(total(fixed, &WorkerReport::tasks), 1u);
  EXPECT_EQ(total(fixed, &WorkerReport::grainChanges), 0u);

  o.grain = {true, 200e-6};
  o.workers = &automatic;
  EXPECT_EQ((depth_bounded::search<SlowTree, Count>({}, SlowTree::Node{}, p, o).enumerator.get()), kNodes);
  EXPECT_GT(total(automatic, &WorkerReport::grainChanges), 0u);
  std::uint64_t deepest = 0;
  for (const auto& w : automatic) deepest = std::max(deepest, w.grain);
  EXPECT_GE(deepest, 1u);
  // Which worker runs the split-off tasks is the scheduler's business (on a loaded machine the
  // first may take them all); that there are tasks to take is the skeleton's.
  EXPECT_GT(total(automatic, &WorkerReport::tasks), 1u);
}

// The hunger rule: with a fixed cutoff of 0 the root is the only task the cutoff makes, yet the
// idle second worker is handed the root task's shallowest siblings while it runs.
TEST(HungerSplit, FeedsAnIdleWorkerBelowAFixedCutoff) {
  depth_bounded::Options o;
  o.runtime.threads = 2;
  o.spawnDepth = 0;
  std::vector<WorkerReport> reports;
  o.workers = &reports;
  SearchParams<long long> p;
  p.maxDepth = kDepth;
  EXPECT_EQ((depth_bounded::search<SlowTree, Count>({}, SlowTree::Node{}, p, o).enumerator.get()), kNodes);
  EXPECT_GT(total(reports, &WorkerReport::tasks), 1u);
  std::uint64_t largest = 0;
  for (const auto& w : reports) largest = std::max(largest, w.largestTaskNodes);
  EXPECT_LT(largest, kNodes);  // the root task gave work away
}
