// The comm layer's view of one rank's running search (comm::LocalWork over a ParallelSearch).
// Every call comes from the comm thread. Tasks cross ranks in the wire format (comm/wire.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <functional>
#include <string_view>
#include <vector>

#include "jackdaw/comm/local_work.hpp"
#include "jackdaw/comm/wire.hpp"
#include "jackdaw/core/stop.hpp"
#include "jackdaw/distributed/objective.hpp"

namespace jackdaw::distributed {

// One task as a steal moves it between ranks (both directions): its node, depth and priority. The
// id stays behind: ids are per rank.
template <class Archive, class TaskT>
void transferTask(Archive& ar, TaskT& t) {
  ar(t.node, t.depth, t.priority);
}

// A task in the wire format, as giveAway() would write it (the answer's 4-byte count aside): its
// size, and a hash of its bytes that names the same task in another run (a trace's levels). The
// sizer a driver installs into a search whose observer records the task tree.
struct TaskWire {
  std::uint32_t bytes = 0;
  std::uint64_t key = 0;
};
template <class TaskT>
TaskWire taskWire(const TaskT& t) {
  std::vector<std::byte> out;
  {
    comm::wire::Writer w(out);
    transferTask(w, const_cast<TaskT&>(t));  // a writer only reads
  }
  const std::string_view bytes(reinterpret_cast<const char*>(out.data()), out.size());
  return {static_cast<std::uint32_t>(out.size()), std::hash<std::string_view>{}(bytes)};
}
template <class TaskT>
std::uint32_t taskWireBytes(const TaskT& t) {
  return taskWire(t).bytes;
}

template <class Search>
class SearchWork final : public comm::LocalWork {
 public:
  using TaskT = typename Search::TaskT;
  using Obj = typename Search::T::Obj;

  // holdsSeed: this rank runs the seed (the root work), which counts as one task until it is done.
  SearchWork(Search& s, bool holdsSeed) : s_(s), seedPending_(holdsSeed ? 1 : 0) {}
  void seedDone() {
    seedPending_.store(0, std::memory_order_release);
    seedFinished_.store(1, std::memory_order_release);
  }

  std::size_t queuedTasks() override { return s_.pool().size(); }
  int runningTasks() override { return s_.runtime().runningTasks(); }
  int idleWorkers() override { return s_.runtime().idleWorkers(); }
  double workRate() override { return s_.runtime().meanWorkRate(); }
  bool needsWork() override {
    return !s_.stopFlag().requested() && seedPending_.load(std::memory_order_acquire) == 0 &&
           comm::poolCannotFeed(s_.pool().size(), s_.runtime().idleWorkers());
  }

  std::uint32_t giveAway(bool half, bool seed, std::vector<std::byte>& out) override {
    if (s_.stopFlag().requested()) return 0;
    // Tasks our own idle workers are about to take are not ours to give: an idle rank that handed
    // a just-received task straight on would let two idle ranks bounce tasks between them
    // thousands of times (>12,000 granted steals per rank in a 2-rank NS run,
    // bench/results/distributed.md). A seed request is the exception (local_work.hpp
    // seedableCount): it is answered once per rank.
    const std::size_t queued = s_.pool().size();
    const std::size_t spare = comm::spareFor(seed, queued, s_.runtime().idleWorkers(), s_.runtime().runningTasks());
    if (spare == 0) {
      if (queued == 0) s_.requestSplit();  // stack stealing: a busy worker splits at its next node
      return 0;
    }
    const std::size_t want = comm::tasksPerSteal(spare, half);
    std::uint32_t count = 0;
    comm::wire::Writer w(out);
    while (count < want) {
      auto t = s_.stealShallowest();
      if (!t) break;
      transferTask(w, *t);
      ++count;
    }
    return count;
  }

  bool splitsForThieves() override { return s_.splitsForThieves() && s_.runtime().runningTasks() > 0; }

  void receive(std::span<const std::byte> bytes, std::uint32_t count) override {
    comm::wire::Reader r(bytes);
    for (std::uint32_t i = 0; i < count; ++i) {
      TaskT t;
      transferTask(r, t);
      s_.inject(std::move(t));
    }
  }

  std::uint64_t tasksCreated() override { return s_.tasksCreated() + (holdsSeed() ? 1 : 0); }
  std::uint64_t tasksFinished() override { return s_.tasksFinished() + seedFinished_.load(std::memory_order_acquire); }

  void onBound(std::int64_t b) override { s_.offerBound(decodeObjective<Obj>(b)); }
  void onStop(int reason) override { s_.stopFlag().request(static_cast<StopReason>(reason)); }

 private:
  bool holdsSeed() const {
    return seedPending_.load(std::memory_order_acquire) + seedFinished_.load(std::memory_order_acquire) > 0;
  }
  Search& s_;
  std::atomic<int> seedPending_;
  std::atomic<int> seedFinished_{0};
};

}  // namespace jackdaw::distributed
