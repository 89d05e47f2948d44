// Termination detection by counting waves (Mattern's four-counter idea): every comm thread
// repeatedly joins a nonblocking MPI_Iallreduce (SUM) of its snapshot {tasks created, tasks
// finished, work messages sent, work messages received, busy?, changed-since-previous-snapshot?}.
// All ranks see the same sums, so they all decide at the same wave: terminated when created ==
// finished, sent == received, nobody busy and nobody's counters changed since its previous wave.
// The last check makes the snapshot consistent: every rank's wave-k snapshot is taken after wave
// k-1 completed everywhere, so at the instant the last rank took its wave-(k-1) snapshot all ranks
// were between two identical snapshots. Failed steals do not change the counters, so idle thieves
// do not delay termination.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "jackdaw/comm/comm_options.hpp"
#include "jackdaw/comm/local_work.hpp"

namespace jackdaw::comm::detail {

class TerminationWave {
 public:
  TerminationWave(MPI_Comm comm, const CommOptions& opts) : comm_(comm), o_(opts) {}
  // One step: completes the wave in flight, or starts the next when its interval has passed (short
  // while idle, busyWaveInterval while busy: no wave can end the search then). True once decided.
  // workSent/workReceived: this rank's work messages (granted steals) so far.
  bool step(std::uint64_t nowNs, LocalWork& work, std::uint64_t workSent, std::uint64_t workReceived);
  std::uint64_t waves() const { return waves_; }

 private:
  MPI_Comm comm_;
  const CommOptions& o_;
  MPI_Request req_ = MPI_REQUEST_NULL;
  bool active_ = false, havePrev_ = false;
  std::uint64_t send_[6]{}, recv_[6]{}, prevSnap_[5]{};
  std::uint64_t lastEndNs_ = 0, startNs_ = 0, waves_ = 0;
};

}  // namespace jackdaw::comm::detail
