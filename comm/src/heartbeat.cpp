#include "heartbeat.hpp"

#include <cstdio>

#include "jackdaw/comm/failure.hpp"

namespace jackdaw::comm::detail {

Heartbeat::Heartbeat(LoadBoard& board, const CommOptions& opts, int rank, int size)
    : board_(board), o_(opts), rank_(rank), size_(size), watched_(board.watched()),
      peerBeat_(static_cast<std::size_t>(size), 0), peerBeatSeenNs_(static_cast<std::size_t>(size), 0) {}

void Heartbeat::start(std::uint64_t nowNs) {
  for (auto& t : peerBeatSeenNs_) t = nowNs;
}

void Heartbeat::beat(std::uint64_t now) {
  if (size_ < 2 || now - lastBeatNs_ < static_cast<std::uint64_t>(o_.heartbeatInterval.count()) * 1'000'000) return;
  lastBeatNs_ = now;
  board_.publishHeartbeat();
  if (o_.watchdogSeconds <= 0) return;
  for (int p : watched_) {
    const std::uint64_t b = board_.pushes() ? board_.heartbeat(p) : board_.fetchHeartbeat(p);
    const auto i = static_cast<std::size_t>(p);
    if (b != peerBeat_[i]) {
      peerBeat_[i] = b;
      peerBeatSeenNs_[i] = now;
      continue;
    }
    // Ranks wait a little longer the higher their number, so the lowest watching rank usually
    // speaks first and the job ends with one message.
    const double silent = 1e-9 * static_cast<double>(now - peerBeatSeenNs_[i]);
    if (silent > o_.watchdogSeconds + 0.25 * rank_) {
      char msg[256];
      std::snprintf(msg, sizeof msg,
                    "watchdog: rank %d sent no heartbeat for %.1f s (--watchdog %g): it stopped, was swapped out or "
                    "is cut off; aborting the job",
                    p, silent, o_.watchdogSeconds);
      abortJob(rank_, msg, 1);
    }
  }
}

}  // namespace jackdaw::comm::detail
