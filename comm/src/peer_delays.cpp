#include "jackdaw/comm/peer_delays.hpp"

namespace jackdaw::comm {

PeerDelays::PeerDelays(int size, double alpha) : size_(size), alpha_(alpha), cells_(new Cell[size]) {}

void PeerDelays::sample(int peer, double us) noexcept {
  Cell& c = cells_[peer];
  const std::uint64_t n = c.count.load(std::memory_order_relaxed);
  const double old = c.smoothed.load(std::memory_order_relaxed);
  c.smoothed.store(n == 0 ? us : alpha_ * us + (1.0 - alpha_) * old, std::memory_order_relaxed);
  c.count.store(n + 1, std::memory_order_relaxed);
}

}  // namespace jackdaw::comm
