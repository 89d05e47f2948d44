// The seam between the comm layer and a rank's threaded search (implemented by the distributed
// driver over a running skeleton, or by a test's synthetic work).
//
// The comm layer knows nothing of nodes or skeletons: the comm thread calls LocalWork to publish
// load, hand work away, take in stolen work and detect termination. Every member is called from
// the comm thread only (never from a worker), so an implementation needs to be thread-safe with
// respect to its own workers, not to other callers.
//
// Contract for termination (see comm_thread.hpp): tasksCreated() and tasksFinished() are
// monotonic; a task counts as created on the rank that made it (the root counts once, on the
// rank that holds it before the comm thread starts), and as finished on the rank that ran it.
// A task's children are counted as created BEFORE the task counts as finished, and tasks given
// away are neither created nor finished by the handover; tasks dropped unrun after a stop count as
// finished. Then "sum created == sum finished" in a consistent snapshot means no task exists
// anywhere, including in flight between ranks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace jackdaw::comm {

// The tasks a thief can take from a rank right now: its queued tasks beyond those its own idle
// workers are about to take. giveAway refuses exactly when this is 0, and the board publishes it,
// so a board-driven policy is never sent to a rank that would refuse on its current count.
inline std::size_t stealableCount(std::size_t queued, int idleWorkers) noexcept {
  const auto mine = static_cast<std::size_t>(idleWorkers > 0 ? idleWorkers : 0);
  return queued > mine ? queued - mine : 0;
}

// How many of `spare` stealable tasks one granted steal hands over: half (at least one) or one
// (CommOptions::stealHalf). giveAway and jackdaw-sim's victim both give this many.
inline std::size_t tasksPerSteal(std::size_t spare, bool half) noexcept {
  if (spare == 0) return 0;
  return half ? (spare > 1 ? spare / 2 : 1) : 1;
}

// The tasks a seed request (seed_tree.hpp) can take: every queued task while a task runs here (it
// makes more), else all but one. Unlike a steal it may take what this rank's own idle workers would:
// at start-up a task passed down the tree of ranks soon feeds many more workers than it would here.
inline std::size_t seedableCount(std::size_t queued, int running) noexcept {
  if (running > 0) return queued;
  return queued > 0 ? queued - 1 : 0;
}

// What a request may take from a rank now: seedableCount for a seed request, else stealableCount.
// giveAway and jackdaw-sim's victim both ask this.
inline std::size_t spareFor(bool seed, std::size_t queued, int idleWorkers, int running) noexcept {
  return seed ? seedableCount(queued, running) : stealableCount(queued, idleWorkers);
}

// A rank whose pool cannot feed its idle workers: its comm thread steals for it
// (LocalWork::needsWork of the distributed driver and of jackdaw-sim's rank).
inline bool poolCannotFeed(std::size_t queued, int idleWorkers) noexcept { return idleWorkers > 0 && queued == 0; }

class LocalWork {
 public:
  virtual ~LocalWork() = default;

  // --- load, published on the board ---
  virtual std::size_t queuedTasks() = 0;  // exact pool size
  // Tasks a thief could take now (published as the board's task count); giveAway must hand over
  // tasks exactly while this is > 0.
  virtual std::size_t stealableTasks() { return stealableCount(queuedTasks(), idleWorkers()); }
  virtual int runningTasks() = 0;
  virtual int idleWorkers() = 0;
  virtual double workRate() = 0;          // the rank's mean worker rate (3.1)
  // True when the pool cannot feed the idle workers: the comm thread then steals for this rank.
  virtual bool needsWork() = 0;

  // --- victim side: remove tasksPerSteal(spare, half) tasks, shallowest first, and append them, in
  // the wire format (wire.hpp), to `out`; spare is stealableCount, or seedableCount for a seed
  // request (seed). Returns how many tasks went; 0 = nothing to give (and `out` unchanged).
  virtual std::uint32_t giveAway(bool half, bool seed, std::vector<std::byte>& out) = 0;
  // A busy worker here will split for a thief that giveAway found nothing for (the request may wait
  // for it: CommOptions::stealHoldMax).
  virtual bool splitsForThieves() { return false; }
  // --- thief side: read `count` tasks from `bytes` and put them in the pool.
  virtual void receive(std::span<const std::byte> bytes, std::uint32_t count) = 0;

  // --- termination counters (see contract above) ---
  virtual std::uint64_t tasksCreated() = 0;
  virtual std::uint64_t tasksFinished() = 0;

  // --- propagation: the global bound improved / a stop was requested on some rank. Called from
  // the comm thread; keep them cheap (store into an atomic).
  virtual void onBound(std::int64_t /*bound*/) {}
  virtual void onStop(int /*reason*/) {}
};

}  // namespace jackdaw::comm
