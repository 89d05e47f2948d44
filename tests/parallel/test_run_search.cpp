// apps/common wiring: runSearch dispatches on --skeleton, and runJson reports every worker.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "../core/toy_models.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/core/errors.hpp"

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

// --progress reads ctx.live while the search runs: monotone, and equal to the result's nodes
// once the search is over (the registered counters keep their nodes in the total).
TEST(RunSearch, LiveNodesAreMonotoneAndEndAtTheResult) {
  for (const char* skel : kSkeletons) {
    app::AppContext ctx;
    chooseSkeleton(ctx, skel, 50);
    std::atomic<bool> done{false}, monotone{true};
    std::thread reader([&] {
      std::uint64_t last = 0;
      while (!done.load()) {
        const std::uint64_t n = ctx.live.nodes();
        if (n < last) monotone = false;
        last = n;
      }
    });
    auto r = app::runSearch<toy::Queens, Enumeration<toy::CountSolutions>>(ctx, {10}, {}, SearchParams<int>{});
    done = true;
    reader.join();
    EXPECT_EQ(r.enumerator.get(), 724u) << skel;  // OEIS A000170
    EXPECT_TRUE(monotone.load()) << skel;
    EXPECT_EQ(ctx.live.nodes(), r.stats.nodes) << skel;
  }
}

TEST(RunSearch, ValidateRefusesImpossibleCombinations) {
  app::CommonOptions o;
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
