// The victim policy, its constants and the load board as a run asks for them (--policy, --perf-*,
// --seed, --board, --board-sample), and the names reports give the comm flags. Plain data: the
// flags themselves are declared in comm_cli.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "jackdaw/comm/board_scheme.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

// The victim policy, its constants and the load board as the command line gives them
// (SessionConfig::steal for the runtime, SimConfig::steal for jackdaw-sim).
struct StealOptions {
  std::string policy = "random";         // --policy: a name in the registry
  ParamValues policyParams;              // --perf-*, --prop-*, ...: every registered constant, by flag
  std::uint64_t seed = 1;                // --seed: the policies' random choices
  BoardScheme board = BoardScheme::All;  // --board all | sample
  int boardSample = 4;                   // --board-sample: records read per choice
};

// The name --steal takes, for reports (--stats "options": "steal": "half").
inline const char* stealName(bool stealHalf) { return stealHalf ? "half" : "one"; }

}  // namespace jackdaw::comm
