// app::finish: the summary every app prints (same keys, same time line), the --stats document it
// writes (common part, app, fields, result) and the exit code it picks.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "jackdaw/app/feature_states.hpp"
#include "jackdaw/app/finish.hpp"

namespace {

using namespace jackdaw;

SearchStats nodes(std::uint64_t n) {
  SearchStats s;
  s.nodes = n;
  return s;
}

// Runs finish with stdout captured; returns (exit code, what it printed).
std::pair<int, std::string> run(app::AppContext& ctx, StopReason stop, const app::Answer& a) {
  std::ostringstream captured;
  auto* old = std::cout.rdbuf(captured.rdbuf());
  int code = -1;
  try {
    code = app::finish(ctx, nodes(1000), 0.5, stop, a);
  } catch (...) {
    std::cout.rdbuf(old);
    throw;
  }
  std::cout.rdbuf(old);
  return {code, captured.str()};
}

TEST(Finish, SummaryLinesAreTheSameForEveryApp) {
  EXPECT_EQ(app::summaryText(nodes(1342054), 1.234, StopReason::None),
            "status: complete\nnodes: 1342054\ntime: 1.234000 s\nrate: 1.09e+06 nodes/s\n");
  EXPECT_EQ(app::summaryText(nodes(7), 0.0, StopReason::Interrupted),
            "status: interrupted\nnodes: 7\ntime: 0.000000 s\nrate: 0 nodes/s\n");
  EXPECT_EQ(app::summaryText(nodes(3), 0.5, StopReason::Found), "status: found\nnodes: 3\ntime: 0.500000 s\nrate: 6 nodes/s\n");
}

TEST(Finish, PrintsTheAnswerThenTheSummaryAndWritesStats) {
  app::AppContext ctx;
  ctx.name = "toy";
  ctx.opts.statsFile = testing::TempDir() + "finish_stats.json";
  app::Answer a;
  a.line("solutions", 92).line("SAT");
  a.fields["n"] = 8;
  a.result["solutions"] = 92;
  const auto [code, out] = run(ctx, StopReason::None, a);
  EXPECT_EQ(code, app::kSuccess);
  EXPECT_EQ(out, "solutions: 92\nSAT\n" + app::summaryText(nodes(1000), 0.5, StopReason::None));
  EXPECT_TRUE(ctx.features->stats.written);
  std::ifstream in(ctx.opts.statsFile);
  const auto doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["app"], "toy");
  EXPECT_EQ(doc["n"], 8);
  EXPECT_EQ(doc["result"]["solutions"], 92);
  EXPECT_EQ(doc["partial"], false);
  EXPECT_FALSE(doc.contains("partial_result"));
  EXPECT_EQ(doc["status"], "complete");
  EXPECT_EQ(doc["complete"], true);
  EXPECT_EQ(doc["stats"]["nodes"], 1000);
  EXPECT_DOUBLE_EQ(doc["seconds"].get<double>(), 0.5);
  std::remove(ctx.opts.statsFile.c_str());
}

TEST(Finish, ExitCodeFollowsTheStatusUnlessTheAppSaysOtherwise) {
  app::AppContext ctx;
  EXPECT_EQ(run(ctx, StopReason::Found, {}).first, app::kSuccess);
  EXPECT_EQ(run(ctx, StopReason::Interrupted, {}).first, app::kPartial);
  app::Answer answered;
  answered.exitCode = app::kSuccess;  // e.g. a decision answered just as a signal came
  EXPECT_EQ(run(ctx, StopReason::Interrupted, answered).first, app::kSuccess);
}

// Issue 53: an interrupted run's best so far must never read as the answer, whatever the app wrote.
TEST(Finish, APartialRunIsMarkedByTheFrame) {
  app::AppContext ctx;
  ctx.name = "toy";
  ctx.opts.statsFile = testing::TempDir() + "finish_partial.json";
  app::Answer a;
  a.line("chromatic number", 7);
  a.result["chromatic_number"] = 7;
  const auto [code, out] = run(ctx, StopReason::Interrupted, a);
  EXPECT_EQ(code, app::kPartial);
  EXPECT_EQ(out, std::string(app::kPartialHeader) + "\nchromatic number: 7\n" +
                     app::summaryText(nodes(1000), 0.5, StopReason::Interrupted));
  std::ifstream in(ctx.opts.statsFile);
  const auto doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["partial"], true);
  EXPECT_FALSE(doc.contains("result"));
  EXPECT_EQ(doc["partial_result"]["chromatic_number"], 7);
  std::remove(ctx.opts.statsFile.c_str());
  // An app that knows its answer is whole (a decision answered as the signal came) says so: not marked.
  a.exitCode = app::kSuccess;
  const auto [answered, text] = run(ctx, StopReason::Interrupted, a);
  EXPECT_EQ(answered, app::kSuccess);
  EXPECT_EQ(text.rfind("chromatic number: 7\n", 0), 0u);
  std::ifstream again(ctx.opts.statsFile);
  EXPECT_EQ(nlohmann::json::parse(again)["result"]["chromatic_number"], 7);
  std::remove(ctx.opts.statsFile.c_str());
}

TEST(Finish, OnlyTheReportingRankPrints) {
  app::AppContext ctx;
  ctx.rank = 1;
  ctx.size = 2;
  app::Answer a;
  a.line("solutions", 92);
  EXPECT_EQ(run(ctx, StopReason::None, a).second, "");
}

TEST(Finish, AnAppFieldMayNotReplaceACommonOne) {
  app::AppContext ctx;
  for (const char* key : {"status", "stats", "seconds", "result", "partial_result", "partial", "app"}) {
    app::Answer a;
    a.fields[key] = 1;
    EXPECT_THROW(run(ctx, StopReason::None, a), std::logic_error) << key;
  }
}

}  // namespace
