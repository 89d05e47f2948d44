// Options every multi-threaded skeleton takes. Each skeleton's own Options derives from this and
// adds how it splits the work (spawn depth, budget, …).
#pragma once

#include <vector>

#include "jackdaw/core/live_nodes.hpp"
#include "jackdaw/core/search_observer.hpp"
#include "jackdaw/core/worker_report.hpp"
#include "jackdaw/core/worker_runtime.hpp"

namespace jackdaw {

struct ParallelOptions {
  RuntimeOptions runtime{};                      // --threads, --bind, work-rate constants
  std::vector<WorkerReport>* workers = nullptr;  // if set, receives one report per worker
  LiveNodes* live = nullptr;                     // if set, the workers' node counts are readable meanwhile
  std::vector<SearchObserver*> observers;        // told of the search's events (search_observer.hpp)
  // Trace recording only: the incumbent stays at params.initialBound for the whole search; a
  // better solution is told to the observers (solutionFound) and pruning does not tighten.
  bool frozenBound = false;
  // depth_bounded and budget: a running task also hands its shallowest unexplored sibling to the
  // pool whenever a worker of this rank is idle, or a remote thief found the pool empty, and
  // nothing waits there (checked every kHungerEvery nodes). Off: the task tree depends only on
  // the grain, not on timing (trace recording needs that).
  bool splitOnHunger = true;
};

}  // namespace jackdaw
