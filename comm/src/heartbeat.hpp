// The watchdog: every comm thread beats on the board every heartbeatInterval (beat()), and a
// thread of its own (started by start(), ended by stop()) checks, without any MPI call, that
//  - each watched peer's beat (LoadBoard::watched) changed within watchdogSeconds: a peer that
//    stopped, was swapped out or is cut off ends the job, named;
//  - this rank's own comm thread came back from MPI within watchdogSeconds: a one-sided flush or
//    accumulate waiting on a peer that no longer answers (under osc/ucx a stopped or cut-off rank
//    makes them wait for ever) ends the job too.
// The check runs apart from the comm thread because that thread is exactly what a dead peer can
// hold. The workers do not beat, so a long node expansion never looks silent.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "jackdaw/comm/board.hpp"
#include "jackdaw/comm/comm_options.hpp"

namespace jackdaw::comm::detail {

class Heartbeat {
 public:
  Heartbeat(LoadBoard& board, const CommOptions& opts, int rank, int size);
  ~Heartbeat();                     // stops the checking thread
  void start(std::uint64_t nowNs);  // every peer gets the full period from now; starts the check
  void stop();
  // Comm thread, every turn: beats at most every heartbeatInterval; on a board whose beats do not
  // arrive by themselves (sampled, one-sided) it also reads the watched peers' counts.
  void beat(std::uint64_t nowNs);

 private:
  void check();  // the checking thread's loop
  std::uint64_t peerBeat(int p) const;

  LoadBoard& board_;
  const CommOptions& o_;
  int rank_, size_;
  std::uint64_t lastBeatNs_ = 0;
  std::vector<int> watched_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> fetched_;  // sampled one-sided board: counts read by beat()
  std::atomic<std::uint64_t> turnNs_{0};                  // when the comm thread last came back to beat()
  std::mutex m_;
  std::condition_variable cv_;
  bool quit_ = false;
  std::thread checker_;
};

}  // namespace jackdaw::comm::detail
