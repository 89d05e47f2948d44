// What a search returns. Every skeleton returns this same type for a (model, kind) pair.
#pragma once

#include <optional>

#include "jackdaw/core/search_types.hpp"
#include "jackdaw/core/stats.hpp"
#include "jackdaw/core/stop.hpp"

namespace jackdaw {

// The reason a finished search reports: an interruption that left nothing unexplored (it came
// after the last node) leaves the result whole; every other reason stands.
inline StopReason reportedStop(StopReason r, bool truncated) {
  return r == StopReason::Interrupted && !truncated ? StopReason::None : r;
}

template <SearchModel M, SearchKind K>
struct SearchResult {
  using T = SearchTypes<M, K>;
  typename T::Enum enumerator{};          // Enumeration: the folded result
  std::optional<typename T::Node> best;   // Optimisation: best node; Decision: the solution found
  std::optional<typename T::Obj> objective;
  SearchStats stats;                      // totals over all workers (and ranks)
  double seconds = 0.0;
  StopReason stop = StopReason::None;

  // A result is whole unless the search was interrupted or failed.
  bool complete() const { return stop == StopReason::None || stop == StopReason::Found; }
  bool found() const { return best.has_value(); }
};

}  // namespace jackdaw
