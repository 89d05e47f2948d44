// Parameters of the search itself, whichever skeleton runs it. How a skeleton splits the work
// (spawn depth, budget, …) lives in that skeleton's own Options.
#pragma once

#include <cstdint>
#include <optional>

namespace jackdaw {

template <class Obj = long long>
struct SearchParams {
  int maxDepth = -1;                    // nodes at this depth are not expanded; -1: no limit
  std::optional<Obj> initialBound;      // optimisation: only nodes better than this count
  std::optional<Obj> expectedObjective; // decision: the objective a solution must reach
};

}  // namespace jackdaw
