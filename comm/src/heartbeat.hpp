// The watchdog's half of a comm thread: it beats on the board every heartbeatInterval and checks
// the beats of the peers it watches (LoadBoard::watched); a peer whose beat stays unchanged for
// longer than watchdogSeconds aborts the job, naming that peer (a rank SIGSTOP'd, swapped out or
// cut off). The workers do not beat, so a long node expansion never looks silent.
#pragma once

#include <cstdint>
#include <vector>

#include "jackdaw/comm/board.hpp"
#include "jackdaw/comm/comm_options.hpp"

namespace jackdaw::comm::detail {

class Heartbeat {
 public:
  Heartbeat(LoadBoard& board, const CommOptions& opts, int rank, int size);
  void start(std::uint64_t nowNs);  // every peer gets the full period from now
  void beat(std::uint64_t nowNs);   // at most every heartbeatInterval; may abort the job

 private:
  LoadBoard& board_;
  const CommOptions& o_;
  int rank_, size_;
  std::uint64_t lastBeatNs_ = 0;
  std::vector<int> watched_;
  std::vector<std::uint64_t> peerBeat_, peerBeatSeenNs_;  // last beat count seen, and when it changed
};

}  // namespace jackdaw::comm::detail
