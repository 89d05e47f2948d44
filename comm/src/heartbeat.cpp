#include "heartbeat.hpp"

#include <chrono>
#include <cstdio>

#include "jackdaw/comm/failure.hpp"

namespace jackdaw::comm::detail {

namespace {
std::uint64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

Heartbeat::Heartbeat(LoadBoard& board, const CommOptions& opts, int rank, int size)
    : board_(board), o_(opts), rank_(rank), size_(size), watched_(board.watched()),
      fetched_(new std::atomic<std::uint64_t>[static_cast<std::size_t>(size)]) {
  for (int i = 0; i < size_; ++i) fetched_[static_cast<std::size_t>(i)].store(0);
}

Heartbeat::~Heartbeat() { stop(); }

void Heartbeat::start(std::uint64_t now) {
  turnNs_.store(now, std::memory_order_relaxed);
  if (size_ < 2 || o_.watchdogSeconds <= 0) return;
  checker_ = std::thread([this] { check(); });
}

void Heartbeat::stop() {
  {
    std::lock_guard lock(m_);
    quit_ = true;
  }
  cv_.notify_all();
  if (checker_.joinable()) checker_.join();
}

void Heartbeat::beat(std::uint64_t now) {
  turnNs_.store(now, std::memory_order_relaxed);
  if (size_ < 2 || now - lastBeatNs_ < static_cast<std::uint64_t>(o_.heartbeatInterval.count()) * 1'000'000) return;
  lastBeatNs_ = now;
  board_.publishHeartbeat();
  if (o_.watchdogSeconds <= 0 || board_.heartbeatsArrive()) return;
  for (int p : watched_) fetched_[static_cast<std::size_t>(p)].store(board_.fetchHeartbeat(p), std::memory_order_relaxed);
}

std::uint64_t Heartbeat::peerBeat(int p) const {
  return board_.heartbeatsArrive() ? board_.heartbeat(p) : fetched_[static_cast<std::size_t>(p)].load(std::memory_order_relaxed);
}

void Heartbeat::check() {
  std::vector<std::uint64_t> seen(static_cast<std::size_t>(size_), 0), seenAt(static_cast<std::size_t>(size_), nowNs());
  // Ranks wait a little longer the higher their number, so the lowest watching rank usually
  // speaks first and the job ends with one message.
  const double limit = o_.watchdogSeconds + 0.25 * rank_;
  std::unique_lock lock(m_);
  while (!cv_.wait_for(lock, o_.heartbeatInterval, [this] { return quit_; })) {
    const std::uint64_t now = nowNs();
    for (int p : watched_) {
      const auto i = static_cast<std::size_t>(p);
      if (const std::uint64_t b = peerBeat(p); b != seen[i]) {
        seen[i] = b;
        seenAt[i] = now;
        continue;
      }
      const double silent = 1e-9 * static_cast<double>(now - seenAt[i]);
      if (silent > limit) {
        char msg[256];
        std::snprintf(msg, sizeof msg,
                      "watchdog: rank %d sent no heartbeat for %.1f s (--watchdog %g): it stopped, was swapped out or "
                      "is cut off; aborting the job",
                      p, silent, o_.watchdogSeconds);
        abortJob(rank_, msg, 1);
      }
    }
    // The comm thread may have stamped a turn after `now` was read: that is no wait at all.
    const std::uint64_t turn = turnNs_.load(std::memory_order_relaxed);
    const double stuck = turn < now ? 1e-9 * static_cast<double>(now - turn) : 0.0;
    if (stuck > limit) {
      // The peer it waits on is most likely the one silent longest.
      int quiet = -1;
      for (int p : watched_)
        if (quiet < 0 || seenAt[static_cast<std::size_t>(p)] < seenAt[static_cast<std::size_t>(quiet)]) quiet = p;
      char msg[320];
      std::snprintf(msg, sizeof msg,
                    "watchdog: this rank's comm thread has waited %.1f s inside one MPI call (--watchdog %g): a peer "
                    "it writes to or reads from stopped or is cut off (rank %d last beat %.1f s ago); aborting the job",
                    stuck, o_.watchdogSeconds, quiet,
                    quiet < 0 ? 0.0 : 1e-9 * static_cast<double>(now - seenAt[static_cast<std::size_t>(quiet)]));
      abortJob(rank_, msg, 1);
    }
  }
}

}  // namespace jackdaw::comm::detail
