// The communication thread: one per rank, outside the worker arena, owns every two-sided MPI
// message of the search. It answers steal requests (LocalWork::giveAway), steals for this rank
// when LocalWork::needsWork() (victim from the VictimPolicy, a bounded number in flight),
// publishes the rank's record on the board, propagates bound and stop, measures latency to the
// peers, and runs termination detection. Idle, it sleeps with a backoff (20 µs → 1 ms; shorter caps
// while it holds stealable work or waits for a reply, see CommOptions) instead of busy-polling —
// Open MPI's blocking calls spin — and wake() cuts the sleep short.
//
// A Session (session.hpp) builds and owns one with its board and policy; by hand:
//   LoadBoard board(world, BoundSense::Maximise);
//   LoadBoardView view(board);
//   auto policy = PolicyRegistry::builtin().make("random", {.rank = r, .size = n, .board = &view});
//   CommThread comm(world, board, work, *policy, CommOptions{});   // collective
//   /* put the root task on rank 0 first */  comm.start();
//   comm.waitTermination();                     // every rank returns after global quiescence
//
// Termination (counting waves, Mattern's four-counter idea): every comm thread repeatedly joins a
// nonblocking MPI_Iallreduce (SUM) of its snapshot {tasks created, tasks finished, work messages
// sent, work messages received, busy?, changed-since-previous-snapshot?}. All ranks see the same
// sums, so they all decide at the same wave: terminated when created == finished, sent ==
// received, nobody busy and nobody's counters changed since its previous wave. The last check
// makes the snapshot consistent: every rank's wave-k snapshot is taken after wave k-1 completed
// everywhere, so at the instant the last rank took its wave-(k-1) snapshot all ranks were between
// two identical snapshots. Failed steals do not change the counters, so idle thieves do not delay
// termination. After the decision the threads finish with an MPI_Ibarrier while still refusing
// steal requests, so no request is left unmatched.
//
// Seeding (CommOptions::seedArity, seed_tree.hpp): while a rank's seed phase lasts its request
// goes to its tree parent (or the rank a refusal named), not to the policy's choice; a victim keeps
// seed requests it cannot answer yet (held_) and answers them from the loop, refusing them at the
// latest in drain().
//
// Failure: an exception inside the comm thread (from LocalWork or MPI) aborts the whole job with
// "rank r: message" (failure.hpp abortJob) — never a hang. A watched peer (every peer on the push
// board, the next two round the ring on the sampled one) that stops beating for longer than
// CommOptions::watchdogSeconds aborts it too, naming that peer.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "jackdaw/comm/board.hpp"
#include "jackdaw/comm/comm_events.hpp"
#include "jackdaw/comm/comm_options.hpp"
#include "jackdaw/comm/comm_stats.hpp"
#include "jackdaw/comm/local_work.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

class CommThread {
 public:
  CommThread(MPI_Comm comm, LoadBoard& board, LocalWork& work, VictimPolicy& policy,
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
      wake();
      std::this_thread::yield();
    }
  }
  // Any thread: a better bound / a stop; the comm thread spreads it to every board.
  void offerBound(std::int64_t v) noexcept;
  void requestStop(int reason) noexcept;

  bool terminated() const noexcept { return terminated_.load(std::memory_order_acquire); }
  const CommStats& stats() const noexcept { return stats_; }

 private:
  struct PendingSend {
    MPI_Request req;
    std::vector<std::byte> buf;
  };
  void run();
  bool pollIncoming(bool draining);
  struct StealRequest {
    std::int16_t half = 0;
    std::int16_t seed = 0;  // a seed request (seed_tree.hpp)
    std::int32_t seen = 0;  // 1 if the thief had a record of us
    std::uint64_t queued = 0;  // what the thief's board said we could give (staleness)
    std::uint64_t id = 0;   // the thief's request number (timelines match the two sides by it)
  };
  bool answer(int thief, const StealRequest& q, std::uint64_t arrivedNs, bool draining, double heldUs = -1);
  bool serveHeld(bool draining);
  bool holdsWork() { return work_.runningTasks() > 0 || work_.queuedTasks() > 0; }
  bool maybeSteal(std::uint64_t nowNs);
  bool propagate();
  void maybePublish(std::uint64_t nowNs);
  void maybeProbe(std::uint64_t nowNs);
  void waveStep(std::uint64_t nowNs);
  void testSends();
  void drain();
  void idleSleep(std::chrono::microseconds d);
  void delaySample(int peer, double us);      // a timed one-sided read: (3.2)'s sample
  void roundTripSample(int peer, double us);  // a steal round trip: reported apart
  void heartbeat(std::uint64_t nowNs);  // beat, and check the peers' beats (the watchdog)

  MPI_Comm comm_;
  LoadBoard& board_;
  LocalWork& work_;
  VictimPolicy& policy_;
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
  std::list<PendingSend> sends_;
  struct Inflight {
    std::uint64_t sentNs = 0;
    std::uint64_t id = 0;
    bool seed = false;
  };
  bool seeding_ = false;  // our seed request is still to be sent or answered
  int seedVictim_ = -1;   // where it goes: our tree parent, then the rank a refusal named
  struct Held {
    int thief;
    StealRequest q;
    std::uint64_t arrivedNs;
  };
  std::vector<Held> held_;  // seed requests waiting for spare work
  std::map<int, Inflight> inflight_;  // victim -> our request to it
  std::uint64_t nextStealNs_ = 0, stealRetryUs_ = 0;
  std::int64_t publishedBound_, notifiedBound_;
  int publishedStop_ = 0, notifiedStop_ = 0;
  RankRecord lastRecord_{};
  bool everPublished_ = false;
  std::uint64_t lastPublishNs_ = 0, lastProbeNs_ = 0;
  int probePeer_ = 0;
  std::uint64_t nextRefreshNs_ = 0;                    // the policy's next refresh
  std::vector<double> delaySumUs_;                     // per peer, for the mean in stats
  std::vector<std::uint64_t> delaySamples_;
  std::vector<double> rttSumUs_;                       // steal round trips per victim
  std::vector<std::uint64_t> rttSamples_;
  bool hungry_ = false;                                // needsWork() at the last look (hunger episodes)
  bool publishSoon_ = false;                           // a steal answer changed what we can give
  std::uint64_t startNs_ = 0;                          // common start (after a barrier): choice bins
  std::uint64_t lastRequestNs_ = 0;                    // herding: the last steal request's arrival
  std::uint64_t burst_ = 0;                            // … and the burst it belongs to so far
  void endBurst();
  std::uint64_t lastBeatNs_ = 0;
  std::vector<std::uint64_t> peerBeat_, peerBeatSeenNs_;  // last beat count seen, and when it changed
  std::vector<int> watched_;                               // whose beats we check (LoadBoard::watched)
  // termination wave
  MPI_Request waveReq_ = MPI_REQUEST_NULL;
  bool waveActive_ = false;
  std::uint64_t waveSend_[6]{}, waveRecv_[6]{}, prevSnap_[5]{};
  bool havePrev_ = false;
  std::uint64_t lastWaveEndNs_ = 0, waveStartNs_ = 0;
  std::uint64_t workMsgsSent_ = 0, workMsgsRecv_ = 0;
};

}  // namespace jackdaw::comm
