// The shared command line: every constant of (3.1), (3.2), (3.3) and the refresh rule is a flag
// whose default is the dissertation's (docs/policies.md), out-of-range values are refused, and the
// values given reach the runtime and the run's JSON.
#include <gtest/gtest.h>

#include <vector>

#include "jackdaw/app/options.hpp"
#include "parse_common.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/core/worker_runtime.hpp"

using namespace jackdaw;

namespace {
app::CommonOptions parse(std::vector<std::string> args) { return partest::parseCommon(std::move(args)); }
}  // namespace

TEST(PolicyFlags, DefaultsAreTheDissertations) {
  const auto o = parse({});
  EXPECT_DOUBLE_EQ(o.workRate.weightNew, 0.65);
  EXPECT_DOUBLE_EQ(o.workRate.weightOld, 0.35);
  EXPECT_DOUBLE_EQ(o.workRate.logBase, 2.72);
  EXPECT_DOUBLE_EQ(o.steal.policyParams.at("--perf-alpha"), 0.65);
  EXPECT_DOUBLE_EQ(o.steal.policyParams.at("--perf-log-offset"), 2.72);
  EXPECT_DOUBLE_EQ(o.steal.policyParams.at("--perf-min-rate"), 0.0001);
  EXPECT_DOUBLE_EQ(o.steal.policyParams.at("--perf-wait-initial-ms"), 1);
  EXPECT_DOUBLE_EQ(o.steal.policyParams.at("--perf-wait-step-up-ms"), 60);
  EXPECT_DOUBLE_EQ(o.steal.policyParams.at("--perf-wait-max-ms"), 240);
  EXPECT_DOUBLE_EQ(o.steal.policyParams.at("--perf-wait-step-down-ms"), 120);
  EXPECT_DOUBLE_EQ(o.steal.policyParams.at("--perf-wait-min-ms"), 5);
}

TEST(PolicyFlags, GivenValuesAreParsedAndReported) {
  const auto o = parse({"--rate-weight-new", "0.5", "--rate-weight-old", "0.25", "--rate-log-offset", "1",
                        "--perf-alpha", "0.9", "--perf-wait-max-ms", "100"});
  EXPECT_DOUBLE_EQ(o.workRate.weightNew, 0.5);
  EXPECT_DOUBLE_EQ(o.workRate.weightOld, 0.25);
  EXPECT_DOUBLE_EQ(o.workRate.logBase, 1.0);
  app::AppContext ctx;
  ctx.opts = o;
  const auto j = app::runJson(ctx, SearchStats{}, 0.0, StopReason::None);
  const auto& c = j["options"]["constants"];
  EXPECT_DOUBLE_EQ(c["rate-weight-new"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(c["rate-weight-old"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(c["rate-log-offset"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(c["perf-alpha"].get<double>(), 0.9);
  EXPECT_DOUBLE_EQ(c["perf-wait-max-ms"].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(c["perf-min-rate"].get<double>(), 0.0001);
}

TEST(PolicyFlags, OutOfRangeValuesAreRefused) {
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--perf-alpha", "1.5"}, {"--perf-alpha", "-0.1"}, {"--perf-log-offset", "0"},
        {"--perf-wait-min-ms", "-1"}, {"--prop-sticky", "2"}, {"--rate-log-offset", "0"},
        {"--rate-weight-new", "-1"}, {"--rate-weight-old", "x"}}) {
    EXPECT_THROW(parse(bad), CLI::ParseError) << bad[0] << " " << bad[1];
  }
}

// The (3.1) constants reach every worker's account: with weightNew 0 the rate only decays by
// weightOld per finished task, whatever the task's timing (1.0 → 0.5 → 0.25 → 0.125).
TEST(PolicyFlags, WorkRateConstantsReachTheRuntime) {
  WorkerRuntime rt({.threads = 1, .rate = {0.0, 0.5, 2.72}});
  rt.runAndWait([&] {
    for (int i = 0; i < 3; ++i) rt.spawn([&] { WorkerRuntime::TaskScope t(rt); });
  });
  EXPECT_EQ(rt.account(0).tasks(), 3u);
  EXPECT_DOUBLE_EQ(rt.account(0).workRate(), 0.125);
}
