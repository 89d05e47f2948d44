// Smoothed latency to each peer rank, measured by the comm thread (timed one-sided reads of the
// peer's record and steal round trips) and read by victim policies from any thread.
//
//   PeerDelays d(size);  d.sample(peer, us);  double us = d.smoothedUs(peer);
//
// Smoothing is an exponential moving average, new = alpha·sample + (1−alpha)·old; alpha 0.65
// matches the weights of POLICY.md (a policy that needs its own formula hears raw samples through
// VictimPolicy::onDelaySample).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace jackdaw::comm {

class PeerDelays {
 public:
  explicit PeerDelays(int size, double alpha = 0.65);
  void sample(int peer, double us) noexcept;  // comm thread only (single writer)
  double smoothedUs(int peer) const noexcept { return cells_[peer].smoothed.load(std::memory_order_relaxed); }
  std::uint64_t samples(int peer) const noexcept { return cells_[peer].count.load(std::memory_order_relaxed); }
  int size() const noexcept { return size_; }

 private:
  struct Cell {
    std::atomic<double> smoothed{0.0};
    std::atomic<std::uint64_t> count{0};
  };
  int size_;
  double alpha_;
  std::unique_ptr<Cell[]> cells_;
};

}  // namespace jackdaw::comm
