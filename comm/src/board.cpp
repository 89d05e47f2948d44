#include "jackdaw/comm/board.hpp"

#include <spdlog/spdlog.h>

#include <bit>
#include <chrono>
#include <cstring>
#include <limits>
#include <vector>

namespace jackdaw::comm {

std::int64_t encodeDouble(double d) noexcept {
  auto b = std::bit_cast<std::int64_t>(d);
  // Negative doubles order backwards as integers: flip their magnitude bits.
  return b < 0 ? b ^ std::numeric_limits<std::int64_t>::max() : b;
}
double decodeDouble(std::int64_t v) noexcept {
  return std::bit_cast<double>(v < 0 ? v ^ std::numeric_limits<std::int64_t>::max() : v);
}

static std::uint64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::int64_t LoadBoard::noBound() const noexcept {
  return sense_ == BoundSense::Maximise ? std::numeric_limits<std::int64_t>::min()
                                        : std::numeric_limits<std::int64_t>::max();
}

LoadBoard::LoadBoard(MPI_Comm comm, BoundSense sense) : sense_(sense) {
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  const MPI_Aint cells = kHeader + static_cast<MPI_Aint>(size_) * kRecordCells;
  MPI_Win_allocate(cells * sizeof(std::uint64_t), sizeof(std::uint64_t), MPI_INFO_NULL, comm_, &base_, &win_);
  std::memset(base_, 0, cells * sizeof(std::uint64_t));
  base_[kBound] = static_cast<std::uint64_t>(noBound());
  int* model = nullptr;
  int flag = 0;
  MPI_Win_get_attr(win_, MPI_WIN_MODEL, &model, &flag);
  unified_ = flag && *model == MPI_WIN_UNIFIED;
  if (!unified_ && rank_ == 0)
    spdlog::warn("rank 0: RMA window uses the separate memory model; the comm thread will MPI_Win_sync");
  // Everyone's window must be initialised before anyone writes into it.
  MPI_Barrier(comm_);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
}

LoadBoard::~LoadBoard() {
  // Nobody may still be putting into our window when it goes away.
  MPI_Win_flush_all(win_);
  MPI_Barrier(comm_);
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
  MPI_Comm_free(&comm_);
}

std::optional<RankRecord> LoadBoard::read(int r) const noexcept {
  const int c = recordCell(r);
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::uint64_t s1 = load(c);
    if (s1 & 1) continue;
    RankRecord rec;
    rec.seq = s1;
    rec.workRate = std::bit_cast<double>(load(c + 1, std::memory_order_relaxed));
    rec.queued = load(c + 2, std::memory_order_relaxed);
    rec.running = load(c + 3, std::memory_order_relaxed);
    rec.idle = load(c + 4, std::memory_order_relaxed);
    rec.timeNs = load(c + 5, std::memory_order_relaxed);
    rec.pooled = load(c + kPooledCell, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (load(c, std::memory_order_relaxed) == s1) return rec;
  }
  return std::nullopt;
}

void LoadBoard::publish(RankRecord mine) {
  const MPI_Aint disp = recordCell(rank_);
  std::uint64_t odd = ++seq_;   // odd: record being written
  std::uint64_t even = ++seq_;  // even: record stable
  std::uint64_t fields[5] = {std::bit_cast<std::uint64_t>(mine.workRate), mine.queued, mine.running,
                             mine.idle, nowNs()};
  for (int t = 0; t < size_; ++t) MPI_Put(&odd, 1, MPI_UINT64_T, t, disp, 1, MPI_UINT64_T, win_);
  MPI_Win_flush_all(win_);
  for (int t = 0; t < size_; ++t) {
    MPI_Put(fields, 5, MPI_UINT64_T, t, disp + 1, 5, MPI_UINT64_T, win_);
    MPI_Put(&mine.pooled, 1, MPI_UINT64_T, t, disp + kPooledCell, 1, MPI_UINT64_T, win_);
  }
  MPI_Win_flush_all(win_);
  for (int t = 0; t < size_; ++t) MPI_Put(&even, 1, MPI_UINT64_T, t, disp, 1, MPI_UINT64_T, win_);
  MPI_Win_flush_all(win_);
  ++publishes_;
}

void LoadBoard::publishBound(std::int64_t v) {
  MPI_Op op = sense_ == BoundSense::Maximise ? MPI_MAX : MPI_MIN;
  for (int t = 0; t < size_; ++t) MPI_Accumulate(&v, 1, MPI_INT64_T, t, kBound, 1, MPI_INT64_T, op, win_);
  MPI_Win_flush_all(win_);
}

void LoadBoard::publishStop(int reason) {
  std::int64_t v = reason;
  for (int t = 0; t < size_; ++t) MPI_Accumulate(&v, 1, MPI_INT64_T, t, kStop, 1, MPI_INT64_T, MPI_MAX, win_);
  MPI_Win_flush_all(win_);
}

void LoadBoard::publishHeartbeat() {
  const std::uint64_t v = ++beats_;
  const MPI_Aint disp = recordCell(rank_) + kHeartbeatCell;
  for (int t = 0; t < size_; ++t) MPI_Put(&v, 1, MPI_UINT64_T, t, disp, 1, MPI_UINT64_T, win_);
  MPI_Win_flush_all(win_);
}

double LoadBoard::timedRead(int peer) {
  std::uint64_t buf[kRecordCells];
  const auto t0 = std::chrono::steady_clock::now();
  MPI_Get(buf, kRecordCells, MPI_UINT64_T, peer, recordCell(peer), kRecordCells, MPI_UINT64_T, win_);
  MPI_Win_flush(peer, win_);
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

void LoadBoard::syncIfSeparate() {
  if (!unified_) MPI_Win_sync(win_);
}

}  // namespace jackdaw::comm
