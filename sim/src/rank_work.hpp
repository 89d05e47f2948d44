// A simulated rank as the comm turn sees any rank: the engine's LocalWork (comm/local_work.hpp)
// over its pool, workers and private stacks. A task travels as its packed id in the wire format
// (wire.hpp); what the simulated network is charged for it is its recorded size (TaskRecord::bytes).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "jackdaw/comm/local_work.hpp"
#include "jackdaw/comm/wire.hpp"
#include "job.hpp"
#include "workers.hpp"

namespace jackdaw::sim::detail {

class RankWork final : public comm::LocalWork {
 public:
  RankWork(Job& job, Rank& r) : job_(job), r_(r) {}

  std::size_t queuedTasks() override { return r_.pool.size(); }
  int runningTasks() override { return r_.running; }
  int idleWorkers() override { return r_.idle; }
  double workRate() override { return r_.workRate(); }
  bool needsWork() override { return r_.needsWork(); }
  // Hunger mode: a busy worker's private stack splits for a refused thief (giveAway below).
  bool splitsForThieves() override { return r_.split && r_.running > 0; }

  // As the engine's: tasksPerSteal of what the request may have, shallowest first. Under hunger
  // splitting, nothing to give and nothing pooled asks a busy worker to split (the engine's
  // requestSplit); the thief's next request may find it. With --split-remote direct (not the
  // runtime's rule: a what-if) a busy worker's split goes into this answer instead, its hunger
  // check's wait (a node or so) left out.
  std::uint32_t giveAway(bool half, bool seed, std::vector<std::byte>& out) override {
    std::vector<std::uint64_t> tasks;
    const std::size_t spare = r_.spareFor(seed);
    if (spare == 0 && r_.split && job_.cfg.splitDirect && r_.split->donor() >= 0)
      tasks = splitFor(job_, r_, r_.split->donor(), true);
    else if (spare == 0 && r_.split && r_.pool.size() == 0) {
      r_.remoteHunger = true;
      r_.hungerChanged();
    }
    const std::size_t want = comm::tasksPerSteal(spare, half);
    for (std::size_t i = 0; i < want; ++i) tasks.push_back(r_.pool.stealShallowest()->id);
    if (!tasks.empty()) r_.hungerChanged();
    comm::wire::Writer w(out);
    givenBytes_ = 0;
    for (std::uint64_t id : tasks) w(id), givenBytes_ += job_.task(id).bytes;
    return static_cast<std::uint32_t>(tasks.size());
  }

  void receive(std::span<const std::byte> bytes, std::uint32_t count) override {
    for (std::uint64_t id : ids(bytes, count)) {
      r_.stats.bytesReceived += job_.task(id).bytes;
      pushTask(job_, r_, id, false);
    }
  }

  // The simulator ends a job by its own count (Job::taskDone), not by waves over these.
  std::uint64_t tasksCreated() override { return r_.created; }
  std::uint64_t tasksFinished() override { return r_.finished; }

  // The recorded wire size of the tasks the last giveAway handed over (what the network carries).
  double givenBytes() const { return givenBytes_; }

  // The packed ids giveAway wrote.
  static std::vector<std::uint64_t> ids(std::span<const std::byte> bytes, std::uint32_t count) {
    std::vector<std::uint64_t> out(count);
    comm::wire::Reader in(bytes);
    for (auto& id : out) in(id);
    return out;
  }

 private:
  Job& job_;
  Rank& r_;
  double givenBytes_ = 0;
};

}  // namespace jackdaw::sim::detail
