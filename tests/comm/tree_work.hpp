// A synthetic LocalWork for testing the comm layer without a search runtime.
//
// Tasks are the ids 0..N-1 of a complete B-ary tree in heap order: task i spawns i·B+1 … i·B+B
// (those below N). So N tasks exist in all and their ids sum to N(N−1)/2 — closed forms the
// tests check. W plain threads run tasks from a mutex-protected deque (newest first, like a
// depth-first owner); thieves get the oldest (shallowest) ones, serialised as raw uint64 ids.
// Every task processed is counted per id so a test can prove each ran exactly once.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "jackdaw/comm/local_work.hpp"

namespace jackdaw::comm::testing {

class TreeWork : public LocalWork {
 public:
  TreeWork(std::uint64_t n, std::uint64_t branching, int workers, unsigned spinNs = 0)
      : n_(n), b_(branching), spinNs_(spinNs), hits_(n) {
    for (int w = 0; w < workers; ++w) threads_.emplace_back([this] { workerLoop(); });
    workers_ = workers;
  }
  ~TreeWork() override { shutdown(); }

  // Called by a worker that found the deque empty (e.g. CommThread::wake).
  void setOnIdle(std::function<void()> f) {
    std::lock_guard lock(m_);
    onIdle_ = std::move(f);
  }

  void injectRoot() {
    std::lock_guard lock(m_);
    created_.fetch_add(1);
    deque_.push_back(0);
    cv_.notify_one();
  }
  void shutdown() {
    {
      std::lock_guard lock(m_);
      done_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

  // ---- LocalWork ----
  std::size_t queuedTasks() override {
    std::lock_guard lock(m_);
    return deque_.size();
  }
  int runningTasks() override { return running_.load(); }
  int idleWorkers() override { return workers_ - running_.load(); }
  double workRate() override { return 1.0; }
  bool needsWork() override {
    std::lock_guard lock(m_);
    return deque_.empty() && running_.load() < workers_;
  }
  std::uint32_t giveAway(bool half, bool seed, std::vector<std::byte>& out) override {
    std::lock_guard lock(m_);
    // The runtime's rules: tasks our own idle workers are about to take stay (stealableCount),
    // except from a seed request (seedableCount); half or one of the rest (tasksPerSteal).
    const int running = running_.load();
    const std::size_t k = tasksPerSteal(spareFor(seed, deque_.size(), workers_ - running, running), half);
    const std::size_t at = out.size();
    out.resize(at + k * sizeof(std::uint64_t));
    for (std::size_t i = 0; i < k; ++i) {
      std::uint64_t id = deque_.front();
      deque_.pop_front();
      std::memcpy(out.data() + at + i * sizeof id, &id, sizeof id);
    }
    given_ += k;
    return static_cast<std::uint32_t>(k);
  }
  void receive(std::span<const std::byte> bytes, std::uint32_t count) override {
    if (bytes.size() != count * sizeof(std::uint64_t)) throw std::runtime_error("tree work: bad payload size");
    std::lock_guard lock(m_);
    for (std::uint32_t i = 0; i < count; ++i) {
      std::uint64_t id;
      std::memcpy(&id, bytes.data() + i * sizeof id, sizeof id);
      deque_.push_back(id);
    }
    received_ += count;
    cv_.notify_all();
  }
  std::uint64_t tasksCreated() override { return created_.load(); }
  std::uint64_t tasksFinished() override { return finished_.load(); }
  void onBound(std::int64_t b) override { lastBound_.store(b); }
  void onStop(int reason) override { stopReason_.store(reason); }

  // ---- results ----
  const std::vector<std::atomic<std::uint32_t>>& hits() const { return hits_; }
  std::uint64_t processed() const { return finished_.load(); }
  std::uint64_t idSum() const { return idSum_.load(); }
  std::uint64_t given() const { return given_; }
  std::uint64_t received() const { return received_; }
  std::int64_t lastBound() const { return lastBound_.load(); }
  int stopReason() const { return stopReason_.load(); }

 private:
  void workerLoop() {
    for (;;) {
      std::uint64_t id;
      {
        std::unique_lock lock(m_);
        if (deque_.empty() && onIdle_) {
          auto f = onIdle_;
          lock.unlock();
          f();
          lock.lock();
        }
        cv_.wait(lock, [this] { return done_ || !deque_.empty(); });
        if (done_) return;
        id = deque_.back();
        deque_.pop_back();
        running_.fetch_add(1);  // under the lock: queued + running never shows the task missing
      }
      if (spinNs_) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(spinNs_);
        while (std::chrono::steady_clock::now() < until) {
        }
      }
      hits_[id].fetch_add(1);
      idSum_.fetch_add(id);
      {
        std::lock_guard lock(m_);
        // A stop drops the subtree, like a search that found its answer.
        if (stopReason_.load() == 0) {
          for (std::uint64_t c = id * b_ + 1; c <= id * b_ + b_ && c < n_; ++c) {
            created_.fetch_add(1);  // children created before the parent counts as finished
            deque_.push_back(c);
          }
        }
        finished_.fetch_add(1);
        running_.fetch_sub(1);
      }
      cv_.notify_all();
    }
  }

  std::uint64_t n_, b_;
  unsigned spinNs_;
  int workers_ = 0;
  std::mutex m_;
  std::condition_variable cv_;
  std::function<void()> onIdle_;
  std::deque<std::uint64_t> deque_;
  bool done_ = false;
  std::vector<std::thread> threads_;
  std::vector<std::atomic<std::uint32_t>> hits_;
  std::atomic<std::uint64_t> created_{0}, finished_{0}, idSum_{0};
  std::atomic<int> running_{0};
  std::uint64_t given_ = 0, received_ = 0;
  std::atomic<std::int64_t> lastBound_{0};
  std::atomic<int> stopReason_{0};
};

}  // namespace jackdaw::comm::testing
