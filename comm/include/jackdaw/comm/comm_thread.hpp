// The communication thread: one per rank, outside the worker arena, owns every two-sided MPI
// message of the search. It is the MPI transport of the steal protocol (steal_protocol.hpp, where
// every rule of stealing, answering, holding, publishing and sleeping lives): it carries the
// protocol's requests and answers as MPI messages, hands it what arrives, and sleeps as long as it
// says, with wake() cutting a sleep short (Open MPI's blocking calls spin, so it never blocks in
// them). Beside the protocol it propagates bound and stop through the board, keeps the watchdog's
// heartbeat (heartbeat.hpp), and detects termination (counting waves, termination_wave.hpp); after
// the decision it drains: it keeps refusing requests until an MPI_Ibarrier completes, so no request
// is left unmatched.
//
// A Session (session.hpp) builds and owns one with its board, view and policy; by hand:
//   LoadBoard board(world, BoundSense::Maximise);
//   LoadBoardView view(board, 0, seed);
//   auto policy = PolicyRegistry::builtin().make("random", {.rank = r, .size = n, .board = &view});
//   CommThread comm(world, board, view, work, *policy, CommOptions{});   // collective
//   /* put the root task on rank 0 first */  comm.start();
//   comm.waitTermination();                     // every rank returns after global quiescence
//
// Failure: an exception inside the comm thread (from LocalWork or MPI) aborts the whole job with
// "rank r: message" (failure.hpp abortJob) — never a hang; so does a watched peer that stops
// beating for longer than CommOptions::watchdogSeconds, naming that peer.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <mutex>
#include <thread>
#include <vector>

#include "jackdaw/comm/board.hpp"
#include "jackdaw/comm/comm_events.hpp"
#include "jackdaw/comm/comm_options.hpp"
#include "jackdaw/comm/comm_stats.hpp"
#include "jackdaw/comm/local_work.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/comm/steal_protocol.hpp"

namespace jackdaw::comm {

namespace detail {
class Heartbeat;
class TerminationWave;
}  // namespace detail

class CommThread {
 public:
  // view: what the policy reads (a request carries what it said of the victim).
  CommThread(MPI_Comm comm, LoadBoard& board, const BoardView& view, LocalWork& work, VictimPolicy& policy,
             CommOptions opts = {});  // collective over comm (dups it)
  ~CommThread();  // joins; if the search is still running, aborts the job (never hangs)
  CommThread(const CommThread&) = delete;
  CommThread& operator=(const CommThread&) = delete;

  void start();
  void waitTermination();  // blocks until global termination; then stats() is final

  // Any thread, cheap: cut the comm thread's idle sleep short (a worker ran dry, …).
  void wake() noexcept;
  // Any thread, cheap (one relaxed load): wake the comm thread if a thief rang since the last look.
  // The caller (a worker) then yields its core: a comm thread sharing it (ranks oversubscribing
  // the cores) would otherwise wait for the worker's time slice to end. With a core to spare the
  // yield returns at once.
  void pollDoorbell() noexcept {
    const std::uint64_t d = board_.doorbell();
    if (d != seenBell_.load(std::memory_order_relaxed)) {
      seenBell_.store(d, std::memory_order_relaxed);
      wakeForRequest();
    }
  }
  // A worker saw a ring: wake the comm thread to read the request, and yield the core (above).
  void wakeForRequest() noexcept {
    wake();
    std::this_thread::yield();
  }
  // Any thread: a better bound / a stop; the comm thread spreads it to every board.
  void offerBound(std::int64_t v) noexcept;
  void requestStop(int reason) noexcept;

  bool terminated() const noexcept { return terminated_.load(std::memory_order_acquire); }
  const CommStats& stats() const noexcept { return stats_; }

 private:
  // The protocol's port: what it asks of this rank and of MPI.
  class Port final : public StealPort {
   public:
    explicit Port(CommThread& t) : t_(t) {}
    std::uint64_t nowNs() override;
    bool stopped() override;
    std::uint32_t take(int thief, const StealRequest& q) override;
    bool holdsWork() override;
    bool splitsForThieves() override;
    void sendAnswer(int thief, const StealRequest& q, std::uint32_t count, std::optional<int> redirect) override;
    void sendRequest(int victim, const StealRequest& q, bool ring) override;

   private:
    CommThread& t_;
    std::vector<std::byte> answer_;  // the answer take() builds: its header, then the tasks
  };
  struct PendingSend {
    MPI_Request req;
    std::vector<std::byte> buf;
  };
  void run();
  bool pollIncoming(bool draining);
  bool propagate();
  void send(int to, int tag, std::vector<std::byte> buf);
  void testSends();
  void drain();
  void idleSleep(std::chrono::microseconds d);
  void finishStats(std::uint64_t wallStartNs);

  MPI_Comm comm_;
  LoadBoard& board_;
  LocalWork& work_;
  CommOptions opts_;
  int rank_ = 0, size_ = 1;

  std::thread thread_;
  std::atomic<bool> terminated_{false};
  std::mutex sleepMutex_;
  std::condition_variable sleepCv_;
  bool woken_ = false;
  std::atomic<std::int64_t> pendingBound_;
  std::atomic<int> pendingStop_{0};
  std::atomic<std::uint64_t> seenBell_{0};

  // comm-thread state
  CommStats stats_;
  Port port_;
  std::unique_ptr<StealProtocol> protocol_;
  std::unique_ptr<detail::Heartbeat> heartbeat_;
  std::unique_ptr<detail::TerminationWave> wave_;
  std::list<PendingSend> sends_;
  std::int64_t publishedBound_, notifiedBound_;
  int publishedStop_ = 0, notifiedStop_ = 0;
  std::uint64_t workMsgsSent_ = 0, workMsgsRecv_ = 0;  // granted steals each way (termination waves)
};

}  // namespace jackdaw::comm
