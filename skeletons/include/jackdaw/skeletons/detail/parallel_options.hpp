// Options every multi-threaded skeleton takes (besides SearchParams).
#pragma once

#include <vector>

#include "jackdaw/core/live_nodes.hpp"
#include "jackdaw/core/worker_report.hpp"
#include "jackdaw/core/worker_runtime.hpp"

namespace jackdaw {

struct ParallelOptions {
  RuntimeOptions runtime{};                  // --threads, --bind, work-rate constants
  bool chunked = false;                      // stack_stealing: hand over a whole level
  bool discrepancy = false;                  // ordered: discrepancy order
  std::vector<WorkerReport>* workers = nullptr;  // if set, receives one report per worker
  const struct DistributedOptions* distributed = nullptr;  // spanning ranks (detail/distributed.hpp)
  double slowdown = 1.0;                     // >1: this rank is made slower (contention experiments)
  LiveNodes* live = nullptr;                 // if set, the workers' node counts are readable meanwhile
};

}  // namespace jackdaw
