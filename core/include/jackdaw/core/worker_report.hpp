// What one worker did during a search (the per-worker part of --stats).
#pragma once

#include <cstdint>

#include "jackdaw/core/stats.hpp"

namespace jackdaw {

struct WorkerReport {
  int worker = 0;            // tbb::this_task_arena::current_thread_index()
  std::uint64_t tasks = 0;   // tasks run (cycles completed)
  SearchStats stats;         // this worker's node counters
  double busyUs = 0.0;
  double idleUs = 0.0;
  double workRate = 1.0;     // (3.1) after the last cycle
  std::uint64_t largestTaskNodes = 0;  // the most nodes one task visited on this worker
  // Under an automatic grain (budget auto, spawn depth auto): the setting this worker ended with
  // (its budget in backtracks; the deepest cutoff it saw) and how often it changed it. 0 otherwise.
  std::uint64_t grain = 0;
  std::uint64_t grainChanges = 0;
};

}  // namespace jackdaw
