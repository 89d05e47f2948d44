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
//
// To poll outside state from the workers themselves (a driver's doorbell, say), override
// pulseEvery() and pulse(): each worker then calls pulse() about every pulseEvery() nodes it
// visits. With no observer asking for a pulse, the cost per node is one untaken branch.
//
// To record the task tree (--trace), override wantsTaskTree() to return true: every task then
// carries a span with its id and its thread CPU time, and each new task is told with taskSpawned()
// (its parent, the parent's nodes before the spawn, its depth and, if the driver installed a
// sizer, its size on the wire and a key for it). With no observer asking for the tree, the engine
// reads no CPU clock and makes no spawn call. Under a frozen bound (ParallelOptions::frozenBound)
// the tree's observers also hear of every solution better than the bound (solutionFound), so a
// trace can say where a branch-and-bound run would have improved its incumbent.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <limits>

#include "jackdaw/core/stop.hpp"

namespace jackdaw {

// One task as a worker ran it.
struct TaskSpan {
  int worker = 0;                                // the worker's index in its runtime
  int depth = 0;                                 // the depth of the task's root node
  std::chrono::steady_clock::time_point start;   // when the body began
  double seconds = 0;                            // how long the body ran
  std::uint64_t nodes = 0;                       // the nodes it visited
  std::uint64_t id = 0;                          // the task's id (tasks are numbered 0, 1, 2, ... as created on this rank)
  std::uint64_t cpuNs = 0;                       // the worker's thread CPU time for the body (0 unless wantsTaskTree())
};

// No parent: a seed task, pushed outside any task (the skeleton's root, a resumed search's tasks).
inline constexpr std::uint64_t kNoParentTask = std::numeric_limits<std::uint64_t>::max();

// A task was created (wantsTaskTree() observers only).
struct TaskSpawn {
  std::uint64_t id = 0;                 // the new task's id
  std::uint64_t parent = kNoParentTask; // the id of the task that ran the push, if any
  std::uint64_t afterNodes = 0;         // nodes the parent had visited in this task before the push
  int depth = 0;                        // the depth of the new task's root node
  int worker = -1;                      // the worker that pushed it (-1: not on a worker)
  std::uint32_t bytes = 0;              // its size as a steal would send it (0: no sizer installed)
  std::uint64_t key = 0;                // a hash of those bytes: the same task in another run has the same key
};

// A better solution (under a frozen bound: better than the bound).
struct SolutionFound {
  std::uint64_t task = kNoParentTask;  // the task running on the worker (kNoParentTask: none, or the tree is not recorded)
  std::uint64_t afterNodes = 0;        // nodes that task had visited when it found the solution
  double objective = 0;                // the solution's objective
  int worker = -1;
};

// The calling thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID).
inline std::uint64_t threadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

class SearchObserver {
 public:
  virtual ~SearchObserver() = default;
  // A worker pushed n new tasks into the pool.
  virtual void tasksCreated(std::size_t /*n*/) {}
  // A worker ran a task (span.seconds is the body's time). Called inside the task's busy time on
  // that worker, so work done here counts as the task's (a slow-rank experiment spins here).
  virtual void taskFinished(const TaskSpan& /*span*/) {}
  // After a task is fully accounted, the pool was empty: some worker may need work now.
  virtual void poolRanDry() {}
  // A worker split for a remote thief that found the pool empty (requestSplit): a request held for
  // that split can be answered now.
  virtual void splitForThief() {}
  // A worker saw a thief's ring (ParallelSearch::watchBell) and did not split for it: the pool
  // holds tasks to give, or the worker had nothing to split.
  virtual void bellRang() {}
  // The search's stop reason rose to r (once per reason: interrupted, then found, then failed),
  // on `worker` (-1: not on a worker, e.g. the seed failed on the launching thread).
  virtual void stopRequested(StopReason /*r*/, int /*worker*/) {}
  // `worker` found a better solution (the incumbent's bound improved through a node); -1 as above.
  virtual void incumbentImproved(int /*worker*/) {}
  // Visited nodes between pulses on each worker; 0: no pulse wanted. Read once, when the observer
  // is attached (ParallelSearch::observe), so it must not change afterwards.
  virtual unsigned pulseEvery() const { return 0; }
  // Called by a worker about every pulseEvery() nodes it visits (more often if another attached
  // observer asks for a shorter period), from several workers at once. It runs in the search's
  // hot path, so it must be cheap: a relaxed load, not a lock or a system call.
  virtual void pulse() {}
  // True: this observer records the task tree (taskSpawned, TaskSpan::id and cpuNs). Read once,
  // when the observer is attached.
  virtual bool wantsTaskTree() const { return false; }
  // A task was created (pushed into the pool), from the pushing thread, before any worker can run
  // it. Only for observers whose wantsTaskTree() is true.
  virtual void taskSpawned(const TaskSpawn& /*spawn*/) {}
  // A better solution, on the finding worker's thread, after incumbentImproved (under a frozen
  // bound: each solution better than it, and no incumbentImproved). Arithmetic objectives only.
  virtual void solutionFound(const SolutionFound& /*found*/) {}
};

}  // namespace jackdaw
