// Turns SIGUSR1 / SIGTERM / SIGINT into a clean stop, from an app's first instruction to its exit.
//
//   SignalStop signals("maxclique", [&](int sig) { stop.request(StopReason::Interrupted); });
//   ... parse, read the input, set up ...     // a signal now: exit code 3 at once, one line
//   signals.searching();                      // a signal now: the callback, once; the search stops
//   ...                                       //   on every worker and reports what it found, partial
//   signals.finishing();                      // a signal now: ignored, the run's exit code stands
//
// Slurm sends USR1 before a job's time limit (#SBATCH --signal=B:USR1@60) and TERM on scancel.
// Before the search starts nothing can be lost, so a process on its own ends at once, whatever it
// is doing (reading a large file), with exit code 3: the job script requeues it. Ranks of one job
// cannot each end on their own: the signal reaches them at different moments, and a rank that
// ended while another had begun to search would take that one's saved work with it. So with
// several ranks (deferSetUp) a signal during set-up is recorded, and just before the search the
// ranks agree on it (signalledAtSetUp, one collective): every rank exits 3 with one message, or
// every rank searches and the signal stops the search (saving it under --checkpoint); a second
// signal during set-up still ends the process at once. Once
// the search runs, the handler only stores the signal number in a lock-free atomic (all a handler
// may safely do) and a watcher thread calls the callback outside signal context. The handlers stay
// installed until the process exits, so a second ^C during shutdown (while a checkpoint is written
// or MPI finalises) cannot kill the process with 130 or 143 instead of the run's own exit code.
// One SignalStop may exist at a time (POSIX signal dispositions are per process).
#pragma once

#include <signal.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace jackdaw::app {

// A file that a signal before the search removes as it ends the process: rank 0's --checkpoint
// lock, which no destructor would remove on that immediate exit. An empty path: none.
void removeAtSetUpExit(const std::string& path);

class SignalStop {
 public:
  SignalStop(const std::string& name, std::function<void(int)> onSignal);
  ~SignalStop();  // leaves the handlers installed, ignoring signals
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;

  // While one lives, this thread holds the signals back (they arrive when it ends): for MPI_Init,
  // whose helper processes and threads would complain of a process that vanished inside it, and
  // whose threads inherit the mask and so leave the signals to the app's own threads.
  class Deferred {
   public:
    Deferred();
    ~Deferred();
    Deferred(const Deferred&) = delete;
    Deferred& operator=(const Deferred&) = delete;

   private:
    sigset_t saved_;
  };

  // --checkpoint was given: a signal before the search also prints a CHECKPOINT line on stdout
  // (none written, the folder keeps what it had), so a job script requeues the job.
  void checkpointing();
  // Several ranks: a first signal during set-up is recorded for the ranks' agreement, not obeyed.
  void deferSetUp();
  bool signalledAtSetUp() const;  // a recorded set-up signal, before searching()
  void reportSetUpStop() const;   // the set-up message (first rank), and the CHECKPOINT line
  void searching();  // from now on a signal stops the search (the callback) instead of the process
  void finishing();  // from now on signals are ignored
  int received() const;  // the signal that stopped the search, or 0

 private:
  std::function<void(int)> onSignal_;
  std::atomic<bool> quit_{false};
  std::mutex quitMutex_;  // with quitCv_: the destructor wakes the watcher at once, not at its next poll
  std::condition_variable quitCv_;
  std::thread watcher_;
};

}  // namespace jackdaw::app
