// The flags of stealing between ranks are declared once (comm::addCommOptions) and taken by both
// the apps (app::addCommonOptions) and jackdaw-sim: the same command line gives the same
// CommOptions and StealOptions through either, and a choice outside its names is refused by both
// with the same message. Also: the apps' hidden --test-* flags land in a TestHooks, never in
// CommonOptions or the session it configures.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "jackdaw/app/options.hpp"
#include "jackdaw/app/test_hooks.hpp"
#include "jackdaw/comm/comm_cli.hpp"

using namespace jackdaw;

namespace {

struct Parsed {
  comm::CommOptions comm;
  comm::StealOptions steal;
};

void parseInto(CLI::App& cli, std::vector<std::string> args) {
  std::reverse(args.begin(), args.end());  // CLI11 takes the vector form back to front
  cli.parse(args);
}

// As an app parses: the frame's common options (comm::addCommOptions among them).
Parsed parseAsApp(const std::vector<std::string>& args) {
  CLI::App cli{"app"};
  app::CommonOptions o;
  const auto policies = comm::PolicyRegistry::builtin();
  app::addCommonOptions(cli, o, policies);
  parseInto(cli, args);
  return {o.comm, o.steal};
}

// As jackdaw-sim parses: a positional trace, a few flags of its own, comm::addCommOptions into its
// SimConfig's CommOptions.
Parsed parseAsSim(std::vector<std::string> args) {
  CLI::App cli{"sim"};
  std::string trace;
  double seedHoldMs = 5;
  bool splitOnHunger = false;
  Parsed p;
  cli.add_option("trace", trace)->required();
  cli.add_option("--seed-hold-ms", seedHoldMs);
  comm::cli::addChoice(cli, "--split", splitOnHunger, {{"tree", false}, {"hunger", true}}, "split");
  comm::addCommOptions(cli, p.comm, p.steal, comm::PolicyRegistry::builtin());
  args.insert(args.begin(), "run.jdtrace");
  parseInto(cli, args);
  return p;
}

void expectSame(const Parsed& a, const Parsed& b, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.comm.stealHalf, b.comm.stealHalf);
  EXPECT_EQ(a.comm.seedArity, b.comm.seedArity);
  EXPECT_EQ(a.comm.seedRedirect, b.comm.seedRedirect);
  EXPECT_EQ(a.comm.stealRetryMax, b.comm.stealRetryMax);
  EXPECT_EQ(a.comm.seedHoldMax, b.comm.seedHoldMax);
  EXPECT_EQ(a.comm.stealHoldMax, b.comm.stealHoldMax);
  EXPECT_EQ(a.steal.policy, b.steal.policy);
  EXPECT_EQ(a.steal.policyParams, b.steal.policyParams);
  EXPECT_EQ(a.steal.seed, b.steal.seed);
  EXPECT_EQ(a.steal.board, b.steal.board);
  EXPECT_EQ(a.steal.boardSample, b.steal.boardSample);
}

const std::vector<std::string> kGiven = {"--steal",         "one",         "--seed-tree",          "3",
                                         "--seed-redirect", "off",         "--steal-retry-max-us", "2500",
                                         "--policy",        "performance", "--perf-alpha",         "0.9",
                                         "--seed",          "42",          "--board",              "sample",
                                         "--board-sample",  "7",           "--steal-hold-us",      "0"};

}  // namespace

TEST(shared_comm_options, DefaultsAreTheRuntimes) {
  const comm::CommOptions runtime;
  for (const auto& p : {parseAsApp({}), parseAsSim({})}) {
    EXPECT_TRUE(p.comm.stealHalf);
    EXPECT_EQ(p.comm.seedArity, runtime.seedArity);
    EXPECT_EQ(p.comm.seedRedirect, runtime.seedRedirect);
    EXPECT_EQ(p.comm.stealRetryMax, runtime.stealRetryMax);
    EXPECT_EQ(p.comm.stealHoldMax, runtime.stealHoldMax);
    EXPECT_EQ(p.steal.policy, "random");
    EXPECT_EQ(p.steal.board, comm::BoardScheme::All);
    EXPECT_EQ(p.steal.boardSample, 4);
    EXPECT_EQ(p.steal.seed, 1u);
  }
  expectSame(parseAsApp({}), parseAsSim({}), "defaults");
}

TEST(shared_comm_options, AppAndSimReadTheSameValues) {
  const Parsed app = parseAsApp(kGiven), sim = parseAsSim(kGiven);
  expectSame(app, sim, "given");
  // And the values are the ones given, not the defaults.
  EXPECT_FALSE(app.comm.stealHalf);
  EXPECT_EQ(app.comm.seedArity, 3);
  EXPECT_FALSE(app.comm.seedRedirect);
  EXPECT_EQ(app.comm.stealRetryMax, std::chrono::microseconds(2500));
  EXPECT_EQ(app.comm.stealHoldMax, std::chrono::microseconds(0));
  EXPECT_EQ(app.steal.policy, "performance");
  EXPECT_DOUBLE_EQ(app.steal.policyParams.at("--perf-alpha"), 0.9);
  EXPECT_EQ(app.steal.seed, 42u);
  EXPECT_EQ(app.steal.board, comm::BoardScheme::Sample);
  EXPECT_EQ(app.steal.boardSample, 7);
  // Each choice's other spelling.
  const std::vector<std::string> other = {"--steal", "half", "--seed-redirect", "on", "--board", "all"};
  expectSame(parseAsApp(other), parseAsSim(other), "other spellings");
  EXPECT_TRUE(parseAsSim(other).comm.stealHalf);
  EXPECT_TRUE(parseAsSim(other).comm.seedRedirect);
}

// A choice takes exactly its names: no other case, no number (the value a name stands for), no
// prefix; both parsers refuse it with the same "--flag: VALUE not in {...}" (the apps' and the
// simulator's tests match that text).
TEST(shared_comm_options, InvalidChoicesAreRefusedAlike) {
  const std::vector<std::vector<std::string>> bad = {
      {"--steal", "HALF"},        {"--steal", "1"},           {"--steal", "0"},    {"--steal", ""},
      {"--seed-redirect", "maybe"}, {"--seed-redirect", "On"}, {"--board", "Sample"}, {"--board", "1"},
      {"--policy", "nosuch"},     {"--perf-alpha", "2"},      {"--perf-wait-max-ms", "1e10"},
      {"--steal-retry-max-us", "0"}, {"--seed-tree", "x"},   {"--board-sample", "0"}, {"--steal-hold-us", "-1"}};
  for (const auto& args : bad) {
    std::string appWhy, simWhy;
    try {
      parseAsApp(args);
    } catch (const CLI::ParseError& e) {
      appWhy = e.what();
    }
    try {
      parseAsSim(args);
    } catch (const CLI::ParseError& e) {
      simWhy = e.what();
    }
    EXPECT_FALSE(appWhy.empty()) << args[0] << " " << args[1] << ": the app accepted it";
    EXPECT_EQ(appWhy, simWhy) << args[0] << " " << args[1];
    EXPECT_NE(appWhy.find(args[0]), std::string::npos) << appWhy;
  }
  try {
    parseAsSim({"--seed-redirect", "maybe"});
    FAIL() << "accepted";
  } catch (const CLI::ParseError& e) {
    EXPECT_EQ(std::string(e.what()), "--seed-redirect: maybe not in {on,off}");
  }
  try {
    parseAsApp({"--steal", "1"});
    FAIL() << "accepted";
  } catch (const CLI::ParseError& e) {
    EXPECT_EQ(std::string(e.what()), "--steal: 1 not in {one,half}");
  }
}

// The apps' own choices are typed too: --log-level by name into spdlog's level.
TEST(shared_comm_options, LogLevelIsTyped) {
  CLI::App cli{"app"};
  app::CommonOptions o;
  const auto policies = comm::PolicyRegistry::builtin();
  app::addCommonOptions(cli, o, policies);
  EXPECT_EQ(o.logLevel, spdlog::level::warn);
  parseInto(cli, {"--log-level", "error"});
  EXPECT_EQ(o.logLevel, spdlog::level::err);
  CLI::App again{"app"};
  app::CommonOptions p;
  app::addCommonOptions(again, p, policies);
  EXPECT_THROW(parseInto(again, {"--log-level", "loud"}), CLI::ValidationError);
}

// The hidden test flags reach a TestHooks only; a command line without them leaves it empty (null
// in runMain), so production runs carry no test state.
TEST(shared_comm_options, TestFlagsFillOnlyTheHooks) {
  CLI::App cli{"app"};
  app::CommonOptions o;
  app::TestHooks hooks;
  const auto policies = comm::PolicyRegistry::builtin();
  app::addCommonOptions(cli, o, policies);
  app::addTestHookOptions(cli, hooks);
  EXPECT_FALSE(hooks.any());
  parseInto(cli, {"--test-fail-rank", "1", "--test-late-stop-rank", "2"});
  EXPECT_TRUE(hooks.any());
  EXPECT_EQ(hooks.failRank, 1);
  EXPECT_EQ(hooks.launch.stopAfterAgreementRank, 2);
  // Hidden from --help.
  EXPECT_EQ(cli.help().find("--test-"), std::string::npos);
}

// A switch is on or off; the older true/false spelling is still accepted, by both parsers alike.
TEST(shared_comm_options, SwitchesTakeOnOffAndTheOlderTrueFalse) {
  for (const auto& [text, want] : std::vector<std::pair<std::string, bool>>{
           {"on", true}, {"off", false}, {"true", true}, {"false", false}}) {
    EXPECT_EQ(parseAsApp({"--seed-redirect", text}).comm.seedRedirect, want) << text;
    EXPECT_EQ(parseAsSim({"--seed-redirect", text}).comm.seedRedirect, want) << text;
  }
}
