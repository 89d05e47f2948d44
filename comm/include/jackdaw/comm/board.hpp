// The load board: one RMA window per rank holding a record per rank plus the global bound and
// stop cells. Each rank's comm thread publishes its own record into EVERY rank's window with
// one-sided puts; anyone on the rank (a victim policy, a worker) reads its LOCAL window with
// atomic loads — no lock and no MPI call on the reading path.
//
//   LoadBoard board(comm, BoundSense::Maximise);   // collective; opens one lock_all epoch
//   board.publish({.workRate = 1.0, .queued = 7});  // comm thread only
//   if (auto rec = board.read(peer)) use(rec->queued);    // any thread, lock-free
//   board.publishBound(42); board.bound();          // MPI_MAX into every board / local load
//
// Why local atomic loads are safe: the window comes from MPI_Win_allocate, so it is memory this
// process owns; we check MPI_WIN_MODEL and expect MPI_WIN_UNIFIED (public and private copies are
// the same memory, remote puts land in it directly; Open MPI's osc/rdma and osc/sm over shared
// memory give that). In the separate model the comm thread calls MPI_Win_sync every loop so the
// private copy catches up (slower, still correct). MPI does not promise that a local load racing
// a remote put sees whole records, so each record carries a sequence number used as a seqlock:
// the writer puts seq odd, flushes, puts the fields, flushes, puts seq even, flushes (flush_all
// orders the three phases at every target); a reader loads seq (acquire), the fields, then seq
// again, and accepts only an even seq that did not change. Aligned 8-byte cells (bound, stop,
// seq) are read whole on every platform we target.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <optional>

#include "jackdaw/comm/board_record.hpp"
#include "jackdaw/comm/policies/board_view.hpp"

namespace jackdaw::comm {

enum class BoundSense { Maximise, Minimise };

// Double objectives on the int64 bound cell: a monotone bijection, so MPI_MAX/MIN on the
// encoded integers orders like the doubles (NaN excluded).
std::int64_t encodeDouble(double d) noexcept;
double decodeDouble(std::int64_t v) noexcept;

class LoadBoard {
 public:
  LoadBoard(MPI_Comm comm, BoundSense sense);  // collective over comm
  ~LoadBoard();                                // collective: ends the epoch, frees the window
  LoadBoard(const LoadBoard&) = delete;
  LoadBoard& operator=(const LoadBoard&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  BoundSense sense() const noexcept { return sense_; }
  bool unifiedModel() const noexcept { return unified_; }

  // ---- reading: local, lock-free, any thread ----
  // A consistent snapshot of rank r's record, or nullopt if it was being rewritten during a few
  // retries (the caller uses the previous value).
  std::optional<RankRecord> read(int r) const noexcept;
  bool hasBound() const noexcept { return bound() != noBound(); }
  std::int64_t bound() const noexcept { return load(kBound); }
  int stopReason() const noexcept { return static_cast<int>(load(kStop)); }
  // Rank r's heartbeat count (its comm thread's sign of life; one aligned cell, no seqlock).
  std::uint64_t heartbeat(int r) const noexcept { return load(recordCell(r) + kHeartbeatCell); }

  // ---- writing: the comm thread only (these call MPI) ----
  void publish(RankRecord mine);      // into every rank's board; fills seq and timeNs
  void publishBound(std::int64_t v);  // MPI_Accumulate MAX/MIN into every board
  void publishStop(int reason);       // MPI_Accumulate MAX into every board's stop cell
  void publishHeartbeat();            // the next heartbeat count into every board
  double timedRead(int peer);         // µs for one MPI_Get of peer's own record + flush
  void syncIfSeparate();              // MPI_Win_sync in the separate memory model

  std::uint64_t publishes() const noexcept { return publishes_; }
  std::int64_t noBound() const noexcept;
  // True when a is strictly better than b in this board's sense.
  bool better(std::int64_t a, std::int64_t b) const noexcept {
    return sense_ == BoundSense::Maximise ? a > b : a < b;
  }

 private:
  static constexpr int kBound = 0, kStop = 1, kHeader = 8, kRecordCells = 8, kHeartbeatCell = 6, kPooledCell = 7;
  std::uint64_t load(int cell, std::memory_order mo = std::memory_order_acquire) const noexcept {
    return std::atomic_ref<std::uint64_t>(base_[cell]).load(mo);
  }
  int recordCell(int r) const noexcept { return kHeader + r * kRecordCells; }

  MPI_Comm comm_;
  MPI_Win win_ = MPI_WIN_NULL;
  std::uint64_t* base_ = nullptr;
  int rank_ = 0, size_ = 1;
  BoundSense sense_;
  bool unified_ = true;
  std::uint64_t seq_ = 0;
  std::uint64_t publishes_ = 0;
  std::uint64_t beats_ = 0;
};

// The board as a policy sees it.
class LoadBoardView final : public BoardView {
 public:
  explicit LoadBoardView(const LoadBoard& b) : board_(b) {}
  std::optional<RankRecord> read(int r) const override { return board_.read(r); }

 private:
  const LoadBoard& board_;
};

}  // namespace jackdaw::comm
