// Work pools: where a process keeps the tasks its workers (and, later, remote thieves) take.
//
// Every pool has the same small interface, so skeletons and the comm layer are written once:
//   void push(Task t)                        any thread
//   std::optional<Task> pop()                a local worker: the task to run next
//   std::optional<Task> stealShallowest()    a thief (another worker, a remote rank): the task
//                                            with the largest expected subtree
//   std::size_t size() const                 exact, one atomic load, safe from any thread
// A Task names its depth in a member `int depth` (and, for PriorityPool, `std::uint64_t priority`).
//
//   jackdaw::DepthPool<MyTask> pool;
//   pool.push({node, 3});
//   auto mine = pool.pop();              // deepest first
//   auto theirs = pool.stealShallowest(); // shallowest first
//
// One mutex per pool: these serve the ordered skeleton's global order and, as WorkerQueues'
// inbox, work from outside the workers (worker_queues.hpp holds the per-worker queues the
// depth-first skeletons use). The atomic size lets a comm thread publish the load without the lock.
#pragma once

#include <atomic>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace jackdaw {

template <class P, class Task>
concept WorkPool = requires(P& p, const P& cp, Task t) {
  p.push(std::move(t));
  { p.pop() } -> std::same_as<std::optional<Task>>;
  { p.stealShallowest() } -> std::same_as<std::optional<Task>>;
  { cp.size() } -> std::convertible_to<std::size_t>;
};

namespace detail {

// Which levels of a DepthPool hold tasks: a bit a level, and a summary bit for each word of 64
// levels, so that the deepest or shallowest non-empty level is found in a few word reads even
// when the tree is 100,000 levels deep (a binomial UTS tree; a scan of the levels was most of a
// fine-grained run's time).
class LevelBits {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  void set(std::size_t d) {
    const std::size_t w = d / 64;
    if (w >= words_.size()) {
      words_.resize(w + 1, 0);
      summary_.resize(w / 64 + 1, 0);
    }
    words_[w] |= bit(d);
    summary_[w / 64] |= bit(w);
  }
  void clear(std::size_t d) {
    const std::size_t w = d / 64;
    words_[w] &= ~bit(d);
    if (words_[w] == 0) summary_[w / 64] &= ~bit(w);
  }
  std::size_t highest() const {
    for (std::size_t s = summary_.size(); s-- > 0;)
      if (summary_[s] != 0) {
        const std::size_t w = s * 64 + top(summary_[s]);
        return w * 64 + top(words_[w]);
      }
    return npos;
  }
  std::size_t lowest() const {
    for (std::size_t s = 0; s < summary_.size(); ++s)
      if (summary_[s] != 0) {
        const std::size_t w = s * 64 + static_cast<std::size_t>(std::countr_zero(summary_[s]));
        return w * 64 + static_cast<std::size_t>(std::countr_zero(words_[w]));
      }
    return npos;
  }

 private:
  static std::uint64_t bit(std::size_t i) { return std::uint64_t{1} << (i % 64); }
  static std::size_t top(std::uint64_t x) { return 63 - static_cast<std::size_t>(std::countl_zero(x)); }
  std::vector<std::uint64_t> words_, summary_;
};

}  // namespace detail

// Tasks indexed by depth. The owner takes the deepest (small, cache-warm subtrees), a thief the
// shallowest (the largest expected subtree); within a level, first in first out.
template <class Task>
class DepthPool {
 public:
  void push(Task t) {
    const auto d = static_cast<std::size_t>(t.depth < 0 ? 0 : t.depth);
    std::lock_guard lock(mutex_);
    if (d >= levels_.size()) levels_.resize(d + 1);
    if (levels_[d].empty()) held_.set(d);
    levels_[d].push_back(std::move(t));
    size_.fetch_add(1, std::memory_order_release);
  }

  std::optional<Task> pop() {
    if (size() == 0) return std::nullopt;
    std::lock_guard lock(mutex_);
    const std::size_t d = held_.highest();
    if (d == detail::LevelBits::npos) return std::nullopt;
    return take(d);
  }

  std::optional<Task> stealShallowest() {
    if (size() == 0) return std::nullopt;
    std::lock_guard lock(mutex_);
    const std::size_t d = held_.lowest();
    if (d == detail::LevelBits::npos) return std::nullopt;
    return take(d);
  }

  std::size_t size() const noexcept { return size_.load(std::memory_order_acquire); }

 private:
  std::optional<Task> take(std::size_t d) {
    auto& level = levels_[d];
    std::optional<Task> t(std::move(level.front()));
    level.pop_front();
    if (level.empty()) held_.clear(d);
    size_.fetch_sub(1, std::memory_order_release);
    return t;
  }

  std::vector<std::deque<Task>> levels_;
  detail::LevelBits held_;  // the levels that hold tasks
  std::atomic<std::size_t> size_{0};
  mutable std::mutex mutex_;
};

// One deque: the owner takes the newest task, a thief the oldest (which was created nearest the root).
template <class Task>
class DequePool {
 public:
  void push(Task t) {
    std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(t));
    size_.fetch_add(1, std::memory_order_release);
  }
  std::optional<Task> pop() { return takeFrom(false); }
  std::optional<Task> stealShallowest() { return takeFrom(true); }
  std::size_t size() const noexcept { return size_.load(std::memory_order_acquire); }

 private:
  std::optional<Task> takeFrom(bool front) {
    if (size() == 0) return std::nullopt;
    std::lock_guard lock(mutex_);
    if (tasks_.empty()) return std::nullopt;
    std::optional<Task> t(std::move(front ? tasks_.front() : tasks_.back()));
    if (front) tasks_.pop_front();
    else tasks_.pop_back();
    size_.fetch_sub(1, std::memory_order_release);
    return t;
  }

  std::deque<Task> tasks_;
  std::atomic<std::size_t> size_{0};
  mutable std::mutex mutex_;
};

}  // namespace jackdaw
