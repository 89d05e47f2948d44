// A work pool ordered by task priority (the ordered skeleton): the smallest `priority` runs first,
// ties in insertion order, so a search that pushes tasks in left-to-right order keeps it.
//
//   jackdaw::PriorityPool<MyTask> pool;   // MyTask has `int depth` and `std::uint64_t priority`
//   pool.push({node, 2, /*priority*/ 5});
//   auto next = pool.pop();               // smallest priority
//
// stealShallowest() also hands out the smallest priority: a remote thief then runs the next task
// of the global order instead of one the order would reach last.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

namespace jackdaw {

template <class Task>
class PriorityPool {
 public:
  void push(Task t) {
    std::lock_guard lock(mutex_);
    heap_.push(Entry{t.priority, seq_++, std::move(t)});
    size_.fetch_add(1, std::memory_order_release);
  }

  std::optional<Task> pop() {
    if (size() == 0) return std::nullopt;
    std::lock_guard lock(mutex_);
    if (heap_.empty()) return std::nullopt;
    // priority_queue::top() is const; the entry is discarded right after, so moving from it is safe.
    std::optional<Task> t(std::move(const_cast<Entry&>(heap_.top()).task));
    heap_.pop();
    size_.fetch_sub(1, std::memory_order_release);
    return t;
  }

  std::optional<Task> stealShallowest() { return pop(); }
  std::size_t size() const noexcept { return size_.load(std::memory_order_acquire); }

 private:
  struct Entry {
    std::uint64_t priority;
    std::uint64_t seq;
    Task task;
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.priority != b.priority ? a.priority > b.priority : a.seq > b.seq;
    }
  };

  std::priority_queue<Entry, std::vector<Entry>, Later> heap_;
  std::uint64_t seq_ = 0;
  std::atomic<std::size_t> size_{0};
  mutable std::mutex mutex_;
};

}  // namespace jackdaw
