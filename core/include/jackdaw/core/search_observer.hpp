// Events of a running multi-threaded search, for code outside the engine: a distributed driver
// (wake the comm thread when the pool runs dry, spread a stop or a better bound), a slow-rank
// experiment, a timeline recorder. In the style of oneTBB's task_scheduler_observer: derive,
// override what you need, and hand the observer to the skeleton (ParallelOptions::observers, or
// ParallelSearch::observe before run()). The engine never knows who listens.
//
//   struct Dry : jackdaw::SearchObserver {
//     void poolRanDry() override { comm.wake(); }
//   } dry;
//   jackdaw::budget::Options o;  o.observers.push_back(&dry);
//
// Calls come from worker threads, concurrently: an observer guards its own state. With no
// observer attached the engine makes no call at all.
#pragma once

#include <cstddef>

#include "jackdaw/core/stop.hpp"

namespace jackdaw {

class SearchObserver {
 public:
  virtual ~SearchObserver() = default;
  // A worker pushed n new tasks into the pool.
  virtual void tasksCreated(std::size_t /*n*/) {}
  // A worker ran a task for `seconds`. Called inside the task's busy time on that worker, so work
  // done here counts as the task's (a slow-rank experiment spins here).
  virtual void taskFinished(int /*worker*/, double /*seconds*/) {}
  // After a task is fully accounted, the pool was empty: some worker may need work now.
  virtual void poolRanDry() {}
  // The search's stop reason rose to r (once per reason: interrupted, then found, then failed).
  virtual void stopRequested(StopReason) {}
  // A worker found a better solution (the incumbent's bound improved through a node).
  virtual void incumbentImproved() {}
};

}  // namespace jackdaw
