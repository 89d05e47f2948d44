// The command-line flags of stealing between ranks, declared once: the apps (apps/common) and
// jackdaw-sim (sim/) both call addCommOptions, so the two take the same flags with the same help,
// defaults and checks, and a trace replayed under the flags a run was given means what the run meant.
// No MPI here (the simulator links only jackdaw_comm_core).
//
//   comm::CommOptions c;  comm::StealOptions s;
//   comm::addCommOptions(app, c, s, comm::PolicyRegistry::builtin());
//   app.parse(argc, argv);  // c.stealHalf, c.seedArity, ..., s.policy, s.board, ... now set
//
// A choice between a few names is typed (an enum or a bool), never a string compared later:
// cli::addChoice binds it with a transformer that turns each accepted name into its value and
// refuses anything else as "--flag: NAME not in {a,b}" (exact spellings, case-sensitive).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "jackdaw/comm/board_scheme.hpp"
#include "jackdaw/comm/comm_options.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/comm/steal_options.hpp"

namespace jackdaw::comm {


// --policy and the constants of every policy in `policies`, --seed, --board, --board-sample,
// --steal, --seed-tree, --seed-redirect, --steal-retry-max-us, --steal-hold-us. Defaults: those of `comm` and `steal`
// as passed (CommOptions{} and StealOptions{}: the runtime's).
// Also --list-policies: policyListing() on stdout, then CLI::Success (the caller exits 0).
void addCommOptions(CLI::App& app, CommOptions& comm, StealOptions& steal, const PolicyRegistry& policies);

// The policies a program offers, for scripts and tests that must not list them by hand: an array
// of {name, summary, constants: [{flag, default, lo, hi, help}]} (hi capped at 1e9 as the flags are).
nlohmann::json policyListing(const PolicyRegistry& policies);

// Flags both the apps and jackdaw-sim take, declared once: --slow-ranks and --slowdown (the
// slowdown's help says what else it applies to), and --memory-limit SIZE (help: "The most memory
// " + what; its default, already in `bytes`, described by defaultText).
void addSlowRanks(CLI::App& app, std::vector<int>& ranks, double& slowdown, const std::string& slowdownHelp);
void addMemoryLimit(CLI::App& app, std::uint64_t& bytes, const std::string& what, const std::string& defaultText);

namespace cli {

template <class T>
using Choices = std::vector<std::pair<std::string, T>>;

// What CLI11 reads back into a T (a bool or an enum) after the transformer has run.
template <class T>
std::string choiceValueText(T v) {
  static_assert(std::is_same_v<T, bool> || std::is_enum_v<T>, "a choice is a bool or an enum");
  if constexpr (std::is_same_v<T, bool>)
    return v ? "1" : "0";
  else
    return std::to_string(static_cast<long long>(static_cast<std::underlying_type_t<T>>(v)));
}

// The transformer: each name becomes its value's text; anything else is refused with
// "NAME not in {a,b}" (CLI11 prefixes the flag). Only the first `shown` names are listed (the
// others are older spellings still accepted).
template <class T>
CLI::Validator choice(const Choices<T>& choices, std::size_t shown = SIZE_MAX) {
  std::string set = "{";
  for (std::size_t i = 0; i < choices.size() && i < shown; ++i) set += (i ? "," : "") + choices[i].first;
  set += "}";
  return CLI::Validator(
      [choices, set](std::string& v) -> std::string {
        for (const auto& [name, value] : choices)
          if (v == name) {
            v = choiceValueText(value);
            return {};
          }
        return v.substr(0, 40) + " not in " + set;
      },
      set);
}

// The name of `value` among `choices` (empty if none).
template <class T>
std::string choiceName(const Choices<T>& choices, T value) {
  for (const auto& [name, v] : choices)
    if (v == value) return name;
  return {};
}

// A flag that takes one of `choices` by name into `var`; its default is var's value, shown by name.
// Help reads as for a string option: "--flag TEXT:{a,b}=a".
template <class T>
CLI::Option* addChoice(CLI::App& app, const std::string& flag, T& var, const Choices<T>& choices,
                       const std::string& help) {
  return app.add_option(flag, var, help)
      ->type_name("TEXT")
      ->transform(choice(choices))
      ->default_str(choiceName(choices, var));
}

// A switch: on or off (also true or false, the older spelling of some), shown as on/off.
inline CLI::Option* addSwitch(CLI::App& app, const std::string& flag, bool& var, const std::string& help) {
  const Choices<bool> names = {{"on", true}, {"off", false}, {"true", true}, {"false", false}};
  return app.add_option(flag, var, help)->type_name("TEXT")->transform(choice(names, 2))->default_str(var ? "on" : "off");
}

}  // namespace cli
}  // namespace jackdaw::comm
