// Why a search stopped early. Shared by every worker of a process; set once, read at every node.
#pragma once

#include <atomic>

namespace jackdaw {

enum class StopReason : int { None = 0, Found = 1, Interrupted = 2, Failed = 3 };

class StopFlag {
 public:
  bool requested() const noexcept { return reason_.load(std::memory_order_relaxed) != 0; }
  StopReason reason() const noexcept { return static_cast<StopReason>(reason_.load(std::memory_order_acquire)); }
  // The first reason wins: a found solution is not turned into an interruption by a late signal.
  bool request(StopReason r) noexcept {
    int expected = 0;
    return reason_.compare_exchange_strong(expected, static_cast<int>(r), std::memory_order_acq_rel);
  }

 private:
  std::atomic<int> reason_{0};
};

}  // namespace jackdaw
