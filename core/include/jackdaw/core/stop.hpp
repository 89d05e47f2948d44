// Why a search stopped early. Shared by every worker of a process; read at every node.
//
// Reasons have a precedence, and a flag only ever rises: Failed > Found > Interrupted. A found
// decision is a whole answer even if a signal cut other work short at the same time, and a
// failure overrides both. The load board's stop cell keeps the maximum too, so every rank ends
// with the same, truthful reason.
#pragma once

#include <atomic>

namespace jackdaw {

enum class StopReason : int { None = 0, Interrupted = 1, Found = 2, Failed = 3 };

class StopFlag {
 public:
  bool requested() const noexcept { return reason_.load(std::memory_order_relaxed) != 0; }
  StopReason reason() const noexcept { return static_cast<StopReason>(reason_.load(std::memory_order_acquire)); }
  // Raises the reason to r if r ranks higher; true if it did.
  bool request(StopReason r) noexcept {
    int cur = reason_.load(std::memory_order_relaxed);
    while (static_cast<int>(r) > cur)
      if (reason_.compare_exchange_weak(cur, static_cast<int>(r), std::memory_order_acq_rel)) return true;
    return false;
  }

 private:
  std::atomic<int> reason_{0};
};

}  // namespace jackdaw
