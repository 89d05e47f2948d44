// Turns SIGUSR1 / SIGTERM / SIGINT into a clean stop of the running search.
//
//   SignalStop guard([&](int sig) { stop.request(StopReason::Interrupted); });
//
// Slurm sends USR1 before a job's time limit (#SBATCH --signal=B:USR1@60) and TERM on scancel;
// the search then stops on every worker, and the app reports what it found so far as partial.
// The handler only stores the signal number in a lock-free atomic (all a handler may safely do);
// a watcher thread polls it every 20 ms and calls the callback once, outside signal context.
// One SignalStop may exist at a time (POSIX signal dispositions are per process).
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace jackdaw::app {

class SignalStop {
 public:
  explicit SignalStop(std::function<void(int)> onSignal);
  ~SignalStop();
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;

  int received() const;  // the signal that arrived, or 0

 private:
  std::function<void(int)> onSignal_;
  std::atomic<bool> quit_{false};
  std::thread watcher_;
};

}  // namespace jackdaw::app
