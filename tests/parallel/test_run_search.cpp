// apps/common wiring: runSearch dispatches on --skeleton, and runJson reports every worker.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "../core/toy_models.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/skeletons/auto.hpp"

using namespace jackdaw;

namespace {
const char* const kSkeletons[] = {"seq", "depth_bounded", "budget", "stack_stealing", "ordered"};

// The command line a user would give: the skeleton, 2 workers unless seq, a budget.
void chooseSkeleton(app::AppContext& ctx, const char* skel, std::uint64_t budget) {
  ctx.opts.skeleton = skel;
  ctx.opts.threads = std::string(skel) == "seq" ? 0 : 2;
  ctx.opts.budget = budget;
  app::validate(ctx.opts);
}
}  // namespace

TEST(RunSearch, EverySkeletonByNameWithPerWorkerJson) {
  for (const char* skel : kSkeletons) {
    app::AppContext ctx;
    chooseSkeleton(ctx, skel, 5);
    auto r = app::runSearch<toy::Queens, Enumeration<toy::CountSolutions>>(ctx, {8}, {}, SearchParams<int>{});
    EXPECT_EQ(r.enumerator.get(), 92u) << skel;  // OEIS A000170
    const auto j = app::runJson(ctx, r.stats, r.seconds, r.stop);
    if (std::string(skel) == "seq") {
      EXPECT_FALSE(j.contains("workers"));
      continue;
    }
    ASSERT_TRUE(j.contains("workers")) << skel;
    ASSERT_EQ(j["workers"].size(), 2u);
    std::uint64_t nodes = 0;
    for (const auto& w : j["workers"]) {
      nodes += w["stats"]["nodes"].get<std::uint64_t>();
      EXPECT_GE(w["busy_us"].get<double>(), 0.0);
      EXPECT_GE(w["idle_us"].get<double>(), 0.0);
      EXPECT_GT(w["work_rate"].get<double>(), 0.0);
    }
    EXPECT_EQ(nodes, r.stats.nodes) << skel;
    EXPECT_TRUE(j.contains("mean_work_rate"));
  }
}

// --progress reads the live counters (ProgressState) while the search runs: monotone, and equal
// to the result's nodes once the search is over (the registered counters keep their nodes in the
// total).
TEST(RunSearch, LiveNodesAreMonotoneAndEndAtTheResult) {
  for (const char* skel : kSkeletons) {
    app::AppContext ctx;
    chooseSkeleton(ctx, skel, 50);
    std::atomic<bool> done{false}, monotone{true};
    std::thread reader([&] {
      std::uint64_t last = 0;
      while (!done.load()) {
        const std::uint64_t n = ctx.features->progress.live.nodes();
        if (n < last) monotone = false;
        last = n;
      }
    });
    auto r = app::runSearch<toy::Queens, Enumeration<toy::CountSolutions>>(ctx, {10}, {}, SearchParams<int>{});
    done = true;
    reader.join();
    EXPECT_EQ(r.enumerator.get(), 724u) << skel;  // OEIS A000170
    EXPECT_TRUE(monotone.load()) << skel;
    EXPECT_EQ(ctx.features->progress.live.nodes(), r.stats.nodes) << skel;
  }
}

TEST(RunSearch, ValidateRefusesImpossibleCombinations) {
  app::CommonOptions o;
  o.skeleton = "seq";
  o.threads = 2;  // seq is one thread
  EXPECT_THROW(app::validate(o), InputError);
  o.threads = 0;
  o.bind = true;
  EXPECT_THROW(app::validate(o), InputError);
  o.skeleton = "budget";
  EXPECT_NO_THROW(app::validate(o));
  o.discrepancy = true;  // ordered only
  EXPECT_THROW(app::validate(o), InputError);
}

// --skeleton auto (the default): seq on one worker of one rank and nothing that needs a parallel
// skeleton; otherwise the parallel skeleton of the search's kind (skeletons/auto.hpp), among those
// the program compiled.
TEST(RunSearch, AutoIsSeqOnOneWorkerOfOneRankElseTheKindsParallelSkeleton) {
  using Count = Enumeration<toy::CountSolutions>;
  app::CommonOptions o;
  EXPECT_EQ(o.skeleton, "auto");
  o.threads = 1;
  EXPECT_TRUE(app::autoRunsSequentially(o, 1));
  EXPECT_FALSE(app::autoRunsSequentially(o, 2));
  o.checkpointDir = "ck";  // a checkpoint needs a parallel skeleton, even for one worker
  EXPECT_FALSE(app::autoRunsSequentially(o, 1));
  o.checkpointDir.clear();
  o.threads = 4;
  EXPECT_FALSE(app::autoRunsSequentially(o, 1));
  EXPECT_NO_THROW(app::validate(o));  // auto may become a parallel skeleton: --threads 4 is fine

  EXPECT_EQ(skeletons::autoChoice<Count>(true), "seq");
  EXPECT_EQ(skeletons::autoChoice<Count>(false), skeletons::AutoParallel<Count>::name);
  EXPECT_NE(skeletons::autoChoice<Optimisation>(false), "seq");
  EXPECT_NE(skeletons::autoChoice<Decision>(false), "seq");
  // A program built without seq runs its parallel skeleton; one built with seq alone runs seq.
  EXPECT_EQ((skeletons::autoChoice<Count, skeletons::Only<skeletons::Ordered>>(true)), "ordered");
  EXPECT_EQ((skeletons::autoChoice<Count, skeletons::Only<skeletons::Seq>>(false)), "seq");

  for (int threads : {1, 2}) {
    app::AppContext ctx;
    ctx.log = std::make_shared<spdlog::logger>("auto");  // no sinks: the choice and the grain are logged
    ctx.opts.skeletonAuto = true;
    ctx.opts.budgetDefault = ctx.opts.spawnDepthDefault = true;
    ctx.opts.threads = threads;
    auto r = app::runSearch<toy::Queens, Count>(ctx, {8}, {}, SearchParams<int>{});
    EXPECT_EQ(r.enumerator.get(), 92u) << threads;  // OEIS A000170
    const std::string want(threads == 1 ? "seq" : skeletons::AutoParallel<Count>::name);
    EXPECT_EQ(ctx.opts.skeleton, want) << threads;
    // The grain default of the skeleton chosen: auto for budget (-b) and depth_bounded (-d).
    EXPECT_EQ(ctx.opts.budgetAuto, want == "budget") << threads;
    EXPECT_EQ(ctx.opts.spawnDepthAuto, want == "depth_bounded") << threads;
    EXPECT_EQ(app::runJson(ctx, r.stats, r.seconds, r.stop)["options"]["skeleton"], want) << threads;
  }
}
