// Per-worker work queues: each worker pushes and pops its own queue without a lock, and thieves
// (other workers, a remote rank's request through the comm thread) steal the oldest task of a
// queue; that carries the fine-grained traffic, a running task feeding a hungry worker. Coarse
// work that needs the level order (spawns, periodic splits, a remote rank's tasks, a full
// queue's overflow) goes to one shared DepthPool, the inbox (push with worker -1).
//
//   jackdaw::WorkerQueues<MyTask> q(workers);
//   q.push(w, task);                  // worker w's own queue (or -1: the inbox)
//   q.publish(w);                     // worker w: what it pushed is stealable now (a BlockQueue
//                                     // hides the owner's current block until then)
//   auto t = q.take(w, origin);       // worker w runs a token that `origin` spawned: its own newest
//                                     // task, else origin's oldest, the inbox's deepest, the others'
//   auto s = q.stealShallowest();     // a remote thief: the inbox, then the longest queue's oldest
//   q.size();                         // tasks queued, exact: one atomic counter
//
// Why the counter is exact and updated after the queue: a token (one per pushed task, jackdaw's
// scheduling) gives up only when it reads size() == 0, so no counted task is ever left without a
// token that will take it, whatever order thieves and owners meet in; a task pushed but not yet
// counted has its own token still to come. The queue itself is Queue (default: BlockQueue, BWoS).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <optional>
#include <utility>
#include <vector>

#include "jackdaw/core/block_queue.hpp"
#include "jackdaw/core/work_pool.hpp"

namespace jackdaw {

template <class Task, class Queue = BlockQueue<Task, 16, 64>>
class WorkerQueues {
 public:
  explicit WorkerQueues(int workers) {
    for (int i = 0; i < workers; ++i) queues_.push_back(std::make_unique<Padded>());
  }

  // From worker w (-1: from outside any worker, into the inbox). Call publish(w) before the tasks
  // are needed elsewhere (at once when a thief waits).
  void push(int w, Task t) {
    if (w < 0) {
      inbox_.push(std::move(t));
    } else {
      if (!queues_[static_cast<std::size_t>(w)]->q.push(std::move(t))) inbox_.push(std::move(t));
    }
    size_.fetch_add(1, std::memory_order_release);
  }

  // Worker w: every task in its queue becomes stealable. If the queue cannot hand its current
  // block over yet, that block's tasks move to the inbox instead (oldest first). Nothing counted
  // may stay hidden once its owner goes on: a token of it waiting elsewhere would wait for good.
  void publish(int w) {
    if (w < 0) return;
    Queue& q = queues_[static_cast<std::size_t>(w)]->q;
    const std::size_t n = q.hidden();
    if (n == 0 || q.grant()) return;
    std::vector<Task> back;
    for (std::size_t i = 0; i < n; ++i)
      if (auto t = q.pop()) back.push_back(std::move(*t));
    for (auto it = back.rbegin(); it != back.rend(); ++it) inbox_.push(std::move(*it));
  }

  // For a token of `origin` running on worker w: some queued task, or none once nothing is queued.
  // (A counted task may be out of sight for a moment: between a push and its publish.)
  std::optional<Task> take(int w, int origin) {
    for (unsigned round = 0;; ++round) {
      if (size() == 0) return std::nullopt;
      if (auto t = takeOnce(w, origin)) {
        size_.fetch_sub(1, std::memory_order_acq_rel);
        return t;
      }
      if (round >= 16) std::this_thread::yield();
    }
  }

  // For a remote thief: the inbox's shallowest, else the oldest task of the fullest queue.
  std::optional<Task> stealShallowest() {
    for (int round = 0; round < 4; ++round) {
      if (size() == 0) return std::nullopt;
      std::optional<Task> t = inbox_.stealShallowest();
      if (!t) {
        Queue* fullest = nullptr;
        std::size_t most = 0;
        for (auto& p : queues_)
          if (const std::size_t n = p->q.size(); n > most) {
            most = n;
            fullest = &p->q;
          }
        if (fullest) t = fullest->steal();
      }
      if (t) {
        size_.fetch_sub(1, std::memory_order_acq_rel);
        return t;
      }
      if (inbox_.size() == 0 && allEmpty()) break;
    }
    return std::nullopt;  // nothing, or nothing in sight (pushed, not yet published)
  }

  std::size_t size() const noexcept { return size_.load(std::memory_order_acquire); }
  int workers() const noexcept { return static_cast<int>(queues_.size()); }

 private:
  std::optional<Task> takeOnce(int w, int origin) {
    const int n = workers();
    if (w >= 0 && w < n)
      if (auto t = queues_[static_cast<std::size_t>(w)]->q.pop()) {
        publish(w);  // a pop may take a block back from thieves: what is left there stays in sight
        return t;
      }
    if (origin >= 0 && origin < n && origin != w)
      if (auto t = queues_[static_cast<std::size_t>(origin)]->q.steal()) return t;
    if (auto t = inbox_.pop()) return t;
    for (int i = 1; i <= n; ++i) {
      const int v = ((w < 0 ? 0 : w) + i) % n;
      if (v == w) continue;
      if (auto t = queues_[static_cast<std::size_t>(v)]->q.steal()) return t;
    }
    return std::nullopt;
  }
  bool allEmpty() const {
    for (const auto& p : queues_)
      if (p->q.size() != 0) return false;
    return true;
  }

  struct alignas(64) Padded {
    Queue q;
  };
  std::vector<std::unique_ptr<Padded>> queues_;
  DepthPool<Task> inbox_;
  alignas(64) std::atomic<std::size_t> size_{0};
};

}  // namespace jackdaw
