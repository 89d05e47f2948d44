// The load board without one-sided windows: where no MPI one-sided component can serve this job
// (Open MPI's osc/rdma over TCP, osc/pt2pt under MPI_THREAD_MULTIPLE), each rank keeps its board
// cells in ordinary memory and the comm threads carry every write and read as small messages on
// the board's own communicator. The meaning is the window's: a put lands in the target's cells, an
// accumulate applies MAX / MIN / SUM there, a get returns the target's cells. Only the comm thread
// calls in; it calls progress() every turn, which applies what arrived and answers gets, so a
// write reaches its target at the target's next turn (as a steal request does).
//
// Messages between two ranks arrive in the order sent (MPI's non-overtaking rule on one tag), so a
// record needs no three-phase seqlock on the wire; the receiver still writes it seqlock-style
// (odd, fields, even) because other threads read the cells while it writes.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <list>
#include <optional>
#include <span>
#include <vector>

namespace jackdaw::comm::detail {

class BoardMessages {
 public:
  enum class Op : std::uint64_t { Store = 1, Record, Max, Min, Sum, Get, Reply };

  // cells: this rank's board (its owner keeps it alive); comm: a communicator of the board's own.
  BoardMessages(MPI_Comm comm, std::span<std::uint64_t> cells);
  ~BoardMessages();

  // Writes into target's cells (target may be this rank: applied at once).
  void store(int target, int cell, std::uint64_t value);
  // A seqlocked record: values[0] is its (even) sequence number at `cell`, values[i] goes to
  // cell + i where bit i of mask is set (cells a record does not own are left alone).
  void record(int target, int cell, std::span<const std::uint64_t> values, std::uint64_t mask);
  void accumulate(int target, int cell, std::int64_t value, Op op);          // Max, Min or Sum
  // Reads n cells of target into out, waiting for the answer (serving others meanwhile).
  void get(int target, int cell, int n, std::uint64_t* out);
  // Several reads at once: every request goes out, then the answers are awaited together.
  struct Read {
    int target, cell, n;
    std::uint64_t* out;
  };
  void getAll(std::span<const Read> reads);
  // A timed read that does not wait: sends a get of n cells to target, stamped, unless one to it is
  // still unanswered, and returns the round trip of the last one answered since, if any (µs). A
  // waiting read spun in progress() until the peer's comm thread woke (up to its 1 ms sleep), each
  // probe costing its own comm thread that much CPU.
  std::optional<double> probe(int target, int cell, int n);
  // Applies what arrived, answers gets, completes sends. True when something arrived.
  bool progress();
  // Collective over the communicator: every message any rank sent before it has been applied.
  void settle();

 private:
  void send(int target, std::vector<std::uint64_t> msg);
  void apply(int from, std::span<const std::uint64_t> msg);
  std::uint64_t load(int cell) const noexcept {
    return std::atomic_ref<std::uint64_t>(cells_[static_cast<std::size_t>(cell)]).load(std::memory_order_relaxed);
  }
  void put(int cell, std::uint64_t v, std::memory_order mo = std::memory_order_relaxed) noexcept {
    std::atomic_ref<std::uint64_t>(cells_[static_cast<std::size_t>(cell)]).store(v, mo);
  }

  struct Pending {
    std::vector<std::uint64_t> buf;
    MPI_Request req = MPI_REQUEST_NULL;
  };
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::span<std::uint64_t> cells_;
  std::list<Pending> sends_;
  std::vector<std::uint64_t> sent_, received_;  // messages per peer, for close()
  std::uint64_t nextGet_ = 1;
  std::uint64_t firstAwaited_ = 0;              // the getAll() in progress: ids first.. first + n - 1
  std::span<const Read> awaited_;
  std::size_t answered_ = 0;
  // probe(): per peer, when the unanswered probe left (0: none out) and the last round trip (µs)
  // not yet returned; ids with kProbeId set answer probes.
  static constexpr std::uint64_t kProbeId = std::uint64_t{1} << 63;
  std::vector<std::uint64_t> probeSentNs_;
  std::vector<std::optional<double>> probeUs_;
  int probesOut_ = 0;
};

}  // namespace jackdaw::comm::detail
