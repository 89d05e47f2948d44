// The load board: one RMA window per rank holding a record per rank plus the global bound, stop
// and doorbell cells. How records travel is the board's scheme (BoardScheme, --board):
// - all:    each rank's comm thread puts its record into EVERY rank's window (4·P puts and 3
//           flushes per publish); anyone on the rank reads its LOCAL window with atomic loads.
// - sample: a rank writes its record into its OWN window only (local stores, no MPI call); a
//           thief about to choose reads the records of k random ranks from their owners with
//           one-sided gets (fetch). Publish cost is O(1) and read cost O(k) at any P.
// Either way a policy reads what it scores through one view (LoadBoardView), without locks.
//
//   LoadBoard board(comm, BoundSense::Maximise);   // collective; opens one lock_all epoch
//   board.publish({.workRate = 1.0, .queued = 7});  // comm thread only
//   if (auto rec = board.read(peer)) use(rec->queued);    // any thread, lock-free (all: every rank)
//   board.fetch(peers, out);                        // comm thread: records read at their owners
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
//
// Transports. Where MPI cannot create the window (Open MPI 4.1's default components between two
// TCP-only hosts: osc/rdma needs an RDMA network; osc/pt2pt refuses MPI_THREAD_MULTIPLE), the
// board says so once on rank 0 and carries the same cells as messages through the comm threads
// (board_messages.hpp): the same records, doorbell, bound, stop and heartbeats, each applied at the
// target's next comm-thread turn. transport() says which one runs; --board-transport picks one.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "jackdaw/comm/board_record.hpp"
#include "jackdaw/comm/board_scheme.hpp"
#include "jackdaw/comm/policies/board_view.hpp"

namespace jackdaw::comm {

namespace detail {
class BoardMessages;
}

enum class BoundSense { Maximise, Minimise };

// Thrown by LoadBoard on every rank alike when BoardTransport::Rma was asked for and MPI could not
// create the window.
struct BoardUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Double objectives on the int64 bound cell: a monotone bijection, so MPI_MAX/MIN on the
// encoded integers orders like the doubles (NaN excluded).
std::int64_t encodeDouble(double d) noexcept;
double decodeDouble(std::int64_t v) noexcept;

class LoadBoard {
 public:
  // Collective over comm. transport Rma: a window or BoardUnavailable on every rank.
  LoadBoard(MPI_Comm comm, BoundSense sense, BoardScheme scheme = BoardScheme::All,
            BoardTransport transport = BoardTransport::Auto);
  ~LoadBoard();                                // collective: ends the epoch, frees the window
  LoadBoard(const LoadBoard&) = delete;
  LoadBoard& operator=(const LoadBoard&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  BoundSense sense() const noexcept { return sense_; }
  bool unifiedModel() const noexcept { return unified_; }
  BoardScheme scheme() const noexcept { return scheme_; }
  // True when a publish reaches every rank's window (scheme all): read(r) then knows every rank.
  bool pushes() const noexcept { return scheme_ == BoardScheme::All; }
  // Rma or Messages: what carries this board. For a window, MPI's name for it where it gives one
  // (Open MPI's osc/ucx: "ucx window 3"), else "".
  BoardTransport transport() const noexcept { return msgs_ ? BoardTransport::Messages : BoardTransport::Rma; }
  const std::string& windowName() const noexcept { return windowName_; }
  // Messages only: applies what other ranks sent and answers their reads (the comm thread calls
  // it every turn). True when something arrived. A window needs no such call.
  bool progress();
  // Collective, while no comm thread runs (tests, set-up): everything any rank wrote before it is
  // in every target's board when it returns.
  void settle();

  // ---- reading: local, lock-free, any thread ----
  // A consistent snapshot of rank r's record, or nullopt if it was being rewritten during a few
  // retries (the caller uses the previous value).
  std::optional<RankRecord> read(int r) const noexcept;
  bool hasBound() const noexcept { return bound() != noBound(); }
  std::int64_t bound() const noexcept { return load(kBound); }
  int stopReason() const noexcept { return static_cast<int>(load(kStop)); }
  // Rank r's heartbeat count (its comm thread's sign of life; one aligned cell, no seqlock) as
  // this rank's window has it: every rank's on the push board, only our own on the sampled one.
  std::uint64_t heartbeat(int r) const noexcept { return load(recordCell(r) + kHeartbeatCell); }
  // The ranks whose heartbeat this rank watches: every other rank on the push board; on the
  // sampled board the next two ranks round the ring (each rank is watched by two, at O(1) cost).
  std::vector<int> watched() const;
  // How many times thieves rang this rank's doorbell (ring()); workers poll it cheaply.
  std::uint64_t doorbell() const noexcept { return load(kDoorbell, std::memory_order_relaxed); }
  // The doorbell's cell, for a search that reads it itself (ParallelSearch::watchBell).
  std::uint64_t* doorbellCell() const noexcept { return base_ + kDoorbell; }
  // The newest record of rank r this rank has: the local board's or the last fetch's (comm thread).
  std::optional<RankRecord> latest(int r) const noexcept;

  // ---- writing: the comm thread only (these call MPI) ----
  void publish(RankRecord mine);      // into every rank's board; fills seq and timeNs
  void publishBound(std::int64_t v);  // MPI_Accumulate MAX/MIN into every board
  void publishStop(int reason);       // MPI_Accumulate MAX into every board's stop cell
  void publishHeartbeat();            // the next heartbeat count: into every board (all) / our own (sample)
  std::uint64_t fetchHeartbeat(int r);  // rank r's count read at r (one MPI_Get + flush)
  // True when heartbeat(r) is current for every watched rank (no fetchHeartbeat needed): the push
  // board, and every board on messages (beats are pushed to the watchers there).
  bool heartbeatsArrive() const noexcept { return pushes() || msgs_ != nullptr; }
  // µs for one MPI_Get of peer's own record + flush. On messages the read does not wait (its
  // answer comes at the peer's next comm turn, a sleep away): it sends one and returns the round
  // trip of the previous one to that peer, if it was answered.
  std::optional<double> timedRead(int peer);
  // Records of `peers` read at their owners with one-sided gets (seqlock in three flushed
  // phases); out[i] is nullopt if peers[i] was being rewritten on every try. latest() sees them.
  void fetch(std::span<const int> peers, std::span<std::optional<RankRecord>> out);
  // Tell `victim` a steal request is on its way: one MPI_Accumulate(+1) into its doorbell cell.
  void ring(int victim);
  void syncIfSeparate();              // MPI_Win_sync in the separate memory model

  std::uint64_t publishes() const noexcept { return publishes_; }
  // Cost counters (comm thread): time inside publish(), fetches and the records they read.
  double publishUs() const noexcept { return 1e-3 * static_cast<double>(publishNs_); }
  std::uint64_t fetches() const noexcept { return fetches_; }
  std::uint64_t fetchedRecords() const noexcept { return fetchedRecords_; }
  double fetchUs() const noexcept { return 1e-3 * static_cast<double>(fetchNs_); }
  std::int64_t noBound() const noexcept;
  // True when a is strictly better than b in this board's sense.
  bool better(std::int64_t a, std::int64_t b) const noexcept {
    return sense_ == BoundSense::Maximise ? a > b : a < b;
  }

 private:
  static constexpr int kBound = 0, kStop = 1, kDoorbell = 2, kHeader = 8, kRecordCells = comm::kRecordCells, kHeartbeatCell = 6,
                       kPooledCell = 7;
  std::uint64_t load(int cell, std::memory_order mo = std::memory_order_acquire) const noexcept {
    return std::atomic_ref<std::uint64_t>(base_[cell]).load(mo);
  }
  void store(int cell, std::uint64_t v, std::memory_order mo = std::memory_order_relaxed) noexcept {
    std::atomic_ref<std::uint64_t>(base_[cell]).store(v, mo);
  }
  int recordCell(int r) const noexcept { return kHeader + r * kRecordCells; }
  static RankRecord decode(const std::uint64_t* cells) noexcept;  // the 8 cells of one record

  bool createWindow(MPI_Aint cells, BoardTransport transport);
  void check(int rc, const char* call, int target = -1);  // throws, naming the rank, unless MPI_SUCCESS
  void accumulateEverywhere(std::int64_t v, int cell, MPI_Op op);  // into every rank's cell

  MPI_Comm comm_;
  MPI_Win win_ = MPI_WIN_NULL;
  std::uint64_t* base_ = nullptr;
  std::vector<std::uint64_t> cells_;                   // messages: the board's memory
  std::unique_ptr<detail::BoardMessages> msgs_;        // messages: null under a window
  std::string windowName_;
  int rank_ = 0, size_ = 1;
  BoundSense sense_;
  bool unified_ = true;
  BoardScheme scheme_ = BoardScheme::All;
  std::uint64_t seq_ = 0;
  std::uint64_t publishes_ = 0;
  std::uint64_t beats_ = 0;
  std::uint64_t publishNs_ = 0, fetches_ = 0, fetchedRecords_ = 0, fetchNs_ = 0;
  std::vector<std::optional<RankRecord>> fetched_;  // comm thread: the last fetch of each rank
};

// The board as a policy sees it, the same under every scheme: candidates() are the ranks to score
// now with their records current (all: every other rank, pushed; sample: k random other ranks,
// fetched at their owners now), refresh() re-reads some at their owners, read() is the newest.
class LoadBoardView final : public SamplingBoardView {
 public:
  // `sample` ranks per draw on the sampled board, from rank `rank`'s stream under --seed `seed`.
  LoadBoardView(LoadBoard& b, int sample, std::uint64_t seed, int rank) : SamplingBoardView(sample, seed, rank), board_(b) {}
  std::optional<RankRecord> read(int r) const override { return board_.latest(r); }
  bool samples() const override { return !board_.pushes(); }
  void refresh(std::span<const int> ranks) override;

 private:
  LoadBoard& board_;
  std::vector<std::optional<RankRecord>> out_;
};

}  // namespace jackdaw::comm
