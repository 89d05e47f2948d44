// A one-worker runtime's tasks, all run on the thread that waits for them (WorkerRuntime with
// threads = 1). oneTBB gives a 1-slot arena a thread of its own to run work enqueued from outside
// it (its "mandatory concurrency"): on a rank fed by its comm thread that thread and the one
// waiting took turns at the rank's core, about 1,000 switches a second each, and a task handed in
// waited for the scheduler to swap them. Here nothing but the waiting thread runs a task.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace jackdaw::detail {

class SoloLoop {
 public:
  using Task = std::function<void()>;

  // Whether the calling thread is this loop's, inside run().
  bool onLoopThread() const noexcept { return current_ == this; }

  // From the loop's thread (inside a task): newest first, as a oneTBB worker's own deque.
  void spawn(Task t) { local_.push_back(std::move(t)); }
  // From any thread: run after the loop's own tasks, oldest first.
  void inject(Task t) {
    {
      std::lock_guard lock(m_);
      inbox_.push_back(std::move(t));
    }
    cv_.notify_one();
  }
  // Keep run() waiting (asleep) with no task left, until release().
  void hold() {
    std::lock_guard lock(m_);
    held_ = true;
  }
  void release() {
    {
      std::lock_guard lock(m_);
      held_ = false;
    }
    cv_.notify_one();
  }

  // f, then every task spawned or injected, until none is left and nothing holds the loop. As a
  // oneTBB task_group: after a task throws the tasks not yet started are dropped, and the first
  // exception comes out here.
  template <class F>
  void run(F&& f) {
    const SoloLoop* outer = std::exchange(current_, this);
    runOne(f);
    for (;;) {
      while (!local_.empty()) {
        Task t = std::move(local_.back());
        local_.pop_back();
        runOne(t);
      }
      std::unique_lock lock(m_);
      cv_.wait(lock, [this] { return !inbox_.empty() || !held_; });
      if (inbox_.empty()) break;
      // Oldest on top of the local stack: injected tasks run in the order they came.
      local_.insert(local_.end(), std::make_move_iterator(inbox_.rbegin()), std::make_move_iterator(inbox_.rend()));
      inbox_.clear();
    }
    current_ = outer;
    cancelled_ = false;
    if (std::exception_ptr e = std::exchange(error_, nullptr)) std::rethrow_exception(e);
  }

 private:
  template <class F>
  void runOne(F& f) {
    if (cancelled_) return;
    try {
      f();
    } catch (...) {
      error_ = std::current_exception();
      cancelled_ = true;
    }
  }

  static inline thread_local const SoloLoop* current_ = nullptr;
  std::vector<Task> local_;  // the loop's thread only
  std::exception_ptr error_;
  bool cancelled_ = false;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<Task> inbox_;  // under m_
  bool held_ = false;        // under m_
};

}  // namespace jackdaw::detail
