#include "jackdaw/comm/comm_cli.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <limits>

#include "jackdaw/comm/cli_numbers.hpp"

namespace jackdaw::comm {

namespace {

// A duration flag in µs (a real number, at least lo), stored whole.
void microseconds(CLI::App& app, const std::string& flag, std::chrono::microseconds& field, double lo,
                  const std::string& help) {
  app.add_option_function<double>(
         flag, [&field](double us) { field = std::chrono::microseconds(static_cast<std::int64_t>(us)); }, help)
      ->default_str(std::to_string(field.count()))
      ->check(cli::real(lo, 1e9));
}

}  // namespace

nlohmann::json policyListing(const PolicyRegistry& policies) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : policies.specs()) {
    nlohmann::json constants = nlohmann::json::array();
    for (const auto& p : s.params)
      constants.push_back({{"flag", p.flag}, {"default", p.defaultValue}, {"lo", p.lo}, {"hi", std::min(p.hi, 1e9)}, {"help", p.help}});
    out.push_back({{"name", s.name}, {"summary", s.summary}, {"constants", std::move(constants)}});
  }
  return out;
}

void addCommOptions(CLI::App& app, CommOptions& comm, StealOptions& steal, const PolicyRegistry& policies) {
  app.add_flag_callback(
      "--list-policies",
      [&policies] {
        std::cout << policyListing(policies).dump(2) << "\n";
        throw CLI::Success();
      },
      "Print the victim policies this program offers as JSON (name, summary, each constant's flag, default and "
      "range), and exit");
  std::string policyHelp = "Victim policy for stealing between ranks:";
  for (const auto& s : policies.specs()) policyHelp += "\n  " + s.name + ": " + s.summary;
  app.add_option("--policy", steal.policy, policyHelp)->capture_default_str()->check(CLI::IsMember(policies.names()));
  // A constant's range is the registry's with its upper end capped at 1e9: some are unbounded
  // there, and beyond 1e9 (11 days, in ms) a constant means nothing and overflows the policies'
  // conversions to integer µs and ns.
  for (const auto& p : policies.params()) {
    steal.policyParams[p.flag] = p.defaultValue;
    app.add_option(p.flag, steal.policyParams[p.flag], p.help)
        ->capture_default_str()
        ->check(cli::real(p.lo, std::min(p.hi, 1e9)))
        ->group("Policy constants");
  }
  app.add_option("--seed", steal.seed, "Seed for randomised choices (victim selection)")
      ->capture_default_str()
      ->check(cli::whole(std::uint64_t{0}, std::numeric_limits<std::uint64_t>::max()));
  cli::addChoice(app, "--board", steal.board, {{"all", BoardScheme::All}, {"sample", BoardScheme::Sample}},
                 "How each rank's load reaches the thieves:\n  all: every publish is put into every rank's board "
                 "(4P puts; reads are local)\n  sample: a rank writes only its own record; a thief reads "
                 "--board-sample random ranks' records at their owners when it chooses (cost independent of P)");
  app.add_option("--board-sample", steal.boardSample, "--board sample: ranks whose records a thief reads per choice")
      ->capture_default_str()
      ->check(cli::whole(1, 1 << 20));
  cli::addChoice(app, "--steal", comm.stealHalf, {{"one", false}, {"half", true}},
                 "Between ranks: a victim gives half its spare tasks, shallowest first (half), or one task per steal "
                 "(one)");
  app.add_option("--seed-tree", comm.seedArity,
                 "Between ranks, at start-up: each rank's first request goes to its parent in a tree of ranks of this "
                 "arity, which answers once it has spare work (0 = off: every rank steals by its policy from the start)")
      ->capture_default_str()
      ->check(cli::whole(0, 1 << 20));
  cli::addSwitch(app, "--seed-redirect", comm.seedRedirect,
                 "--seed-tree: a refused seed request names the victim's own parent and the rank asks there next "
                 "(on), or the refusal ends its seed phase (off)");
  microseconds(app, "--steal-retry-max-us", comm.stealRetryMax, 1.0,
               "Between ranks: the longest a rank waits after refused steals before it asks again (µs; the wait "
               "doubles from 20 µs up to this)");
  microseconds(app, "--steal-hold-us", comm.stealHoldMax, 0.0,
               "Between ranks: a rank with nothing to give, whose busy worker splits for the thief, holds a steal "
               "request up to this long and answers it with that split (µs; 0 = refuse at once)");
}

void addSlowRanks(CLI::App& app, std::vector<int>& ranks, double& slowdown, const std::string& slowdownHelp) {
  app.add_option("--slow-ranks", ranks,
                 "Contention experiments: comma-separated ranks made --slowdown times slower (every task is followed "
                 "by (slowdown - 1) x its own time of busy work on the worker's core)")
      ->delimiter(',')
      ->check(cli::whole(0, 9999999));
  app.add_option("--slowdown", slowdown, slowdownHelp)->capture_default_str()->check(cli::real(1.0, 1e6));
}

void addMemoryLimit(CLI::App& app, std::uint64_t& bytes, const std::string& what, const std::string& defaultText) {
  app.add_option_function<std::string>(
         "--memory-limit", [&bytes](const std::string& v) { bytes = *cli::parseBytes(v); },
         "The most memory " + what + " (bytes, or with K, M, G, T). Default: " + defaultText)
      ->check(cli::bytes(1ULL << 20, 1ULL << 50));
}

}  // namespace jackdaw::comm
