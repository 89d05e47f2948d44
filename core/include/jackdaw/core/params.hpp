// Run-time parameters of one search. Every skeleton reads the ones it needs.
#pragma once

#include <cstdint>
#include <optional>

namespace jackdaw {

template <class Obj = long long>
struct SearchParams {
  int maxDepth = -1;                    // nodes at this depth are not expanded; -1: no limit
  int spawnDepth = 2;                   // depth_bounded / ordered: nodes above it become tasks
  std::uint64_t backtrackBudget = 100000;  // budget: backtracks before work is split off
  std::optional<Obj> initialBound;      // optimisation: only nodes better than this count
  std::optional<Obj> expectedObjective; // decision: the objective a solution must reach
};

}  // namespace jackdaw
