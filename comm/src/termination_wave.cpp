#include "termination_wave.hpp"

#include <cstring>

namespace jackdaw::comm::detail {

bool TerminationWave::step(std::uint64_t now, LocalWork& work, std::uint64_t workSent, std::uint64_t workReceived) {
  if (active_) {
    int done = 0;
    MPI_Test(&req_, &done, MPI_STATUS_IGNORE);
    if (!done) return false;
    active_ = false;
    lastEndNs_ = now;
    ++waves_;
    const std::uint64_t* s = recv_;
    const bool decided = s[0] == s[1] && s[2] == s[3] && s[4] == 0 && s[5] == 0;
    if (o_.events) o_.events->wave(startNs_, now, decided);
    return decided;
  }
  if (now - lastEndNs_ < static_cast<std::uint64_t>(o_.waveInterval.count()) * 1000) return false;
  // Finished before created: a task finishing between the reads can only make this rank look
  // busier, never idle too early (and an unchanged second snapshot rules out races anyway).
  const std::uint64_t finished = work.tasksFinished();
  const std::uint64_t created = work.tasksCreated();
  // Outstanding steal requests do not count: the drain after the decision settles them.
  const bool busy = work.queuedTasks() > 0 || work.runningTasks() > 0;
  if (busy && now - lastEndNs_ < static_cast<std::uint64_t>(o_.busyWaveInterval.count()) * 1000) return false;
  const std::uint64_t snap[5] = {created, finished, workSent, workReceived, busy ? 1u : 0u};
  const bool changed = !havePrev_ || std::memcmp(snap, prevSnap_, sizeof snap) != 0;
  std::memcpy(prevSnap_, snap, sizeof snap);
  havePrev_ = true;
  std::memcpy(send_, snap, sizeof snap);
  send_[5] = changed ? 1 : 0;
  MPI_Iallreduce(send_, recv_, 6, MPI_UINT64_T, MPI_SUM, comm_, &req_);
  active_ = true;
  startNs_ = now;
  return false;
}

}  // namespace jackdaw::comm::detail
