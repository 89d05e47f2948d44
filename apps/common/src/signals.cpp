#include "jackdaw/app/signals.hpp"

#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace jackdaw::app {

namespace {
enum Phase : int { kSetUp = 0, kSearching = 1, kFinishing = 2 };

// The process-global state a signal handler can reach: lock-free atomics and a message prepared
// before any signal can arrive.
std::atomic<int> gSignal{0};
std::atomic<int> gPhase{kFinishing};
std::atomic<bool> gInstalled{false};
char gSetUpMessage[256];
std::size_t gSetUpMessageLength = 0;
std::atomic<bool> gCheckpointing{false};  // --checkpoint: the job script is told on stdout too
constexpr char kSetUpCheckpointLine[] =
    "CHECKPOINT: none written (interrupted before the search started); the folder keeps what it had: "
    "run the same command again\n";
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only touch lock-free atomics");
char gRemovePath[4096];
std::atomic<bool> gRemove{false};  // gRemovePath holds a path (written before this is set)
// Several ranks: the first signal during set-up is only recorded, and the ranks agree on it just
// before the search (SignalStop::deferSetUp); a second one still ends the process at once.
std::atomic<bool> gDeferSetUp{false};

extern "C" void onSignal(int sig) {
  switch (gPhase.load()) {
    case kSetUp: {
      int expected = 0;
      if (gDeferSetUp.load() && gSignal.compare_exchange_strong(expected, sig)) return;
      // Nothing has been searched: end now. write and _exit are async-signal-safe.
      if (gSetUpMessageLength > 0) {
        ssize_t n = ::write(STDERR_FILENO, gSetUpMessage, gSetUpMessageLength);
        // A Slurm script requeues a leg that exits 3 with a CHECKPOINT line (slurm/*.sbatch).
        if (gCheckpointing.load()) n = ::write(STDOUT_FILENO, kSetUpCheckpointLine, sizeof kSetUpCheckpointLine - 1);
        (void)n;
      }
      if (gRemove.load(std::memory_order_acquire)) ::unlink(gRemovePath);
      ::_exit(3);
    }
    case kSearching: {
      int expected = 0;
      gSignal.compare_exchange_strong(expected, sig);
      return;
    }
    default:
      return;
  }
}

constexpr int kSignals[] = {SIGUSR1, SIGTERM, SIGINT};

// The launchers' rank variables: only the first rank of a job prints the set-up line.
bool firstRank() {
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* v = std::getenv(var)) return std::strcmp(v, "0") == 0;
  return true;
}
}  // namespace

void removeAtSetUpExit(const std::string& path) {
  gRemove.store(false, std::memory_order_release);
  if (path.empty() || path.size() >= sizeof gRemovePath) return;
  path.copy(gRemovePath, path.size());
  gRemovePath[path.size()] = '\0';
  gRemove.store(true, std::memory_order_release);
}

SignalStop::SignalStop(const std::string& name, std::function<void(int)> onSignal) : onSignal_(std::move(onSignal)) {
  if (gInstalled.exchange(true)) throw std::logic_error("only one SignalStop may exist at a time");
  const std::string line = name + ": interrupted by a signal before the search started; nothing was searched (exit code 3)\n";
  gSetUpMessageLength = firstRank() ? line.copy(gSetUpMessage, sizeof gSetUpMessage - 1) : 0;
  gSignal.store(0);
  gCheckpointing.store(false);
  gPhase.store(kSetUp);
  struct sigaction sa {};
  sa.sa_handler = jackdaw::app::onSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int s : kSignals) sigaction(s, &sa, nullptr);
  watcher_ = std::thread([this] {
    // The handler runs on another thread (the main thread while it sets up), never on this one.
    sigset_t set;
    sigemptyset(&set);
    for (int s : kSignals) sigaddset(&set, s);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    // Polls for a signal every 20 ms (a handler may not notify a condition variable); the
    // destructor's notify ends the wait at once, so the process does not linger at exit.
    std::unique_lock lock(quitMutex_);
    while (!quit_.load(std::memory_order_acquire)) {
      // A signal recorded during set-up waits for the ranks' agreement (or for the search).
      if (const int s = gSignal.load(std::memory_order_acquire); s != 0 && gPhase.load() != kSetUp) {
        lock.unlock();
        onSignal_(s);
        return;
      }
      quitCv_.wait_for(lock, std::chrono::milliseconds(20), [this] { return quit_.load(std::memory_order_acquire); });
    }
  });
}

SignalStop::~SignalStop() {
  finishing();
  {
    std::lock_guard lock(quitMutex_);
    quit_.store(true, std::memory_order_release);
  }
  quitCv_.notify_all();
  watcher_.join();
  gInstalled.store(false);
}

SignalStop::Deferred::Deferred() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kSignals) sigaddset(&set, s);
  pthread_sigmask(SIG_BLOCK, &set, &saved_);
}

SignalStop::Deferred::~Deferred() { pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }

void SignalStop::checkpointing() { gCheckpointing.store(true); }

void SignalStop::deferSetUp() { gDeferSetUp.store(true); }

bool SignalStop::signalledAtSetUp() const { return gPhase.load() == kSetUp && gSignal.load() != 0; }

void SignalStop::reportSetUpStop() const {
  if (gSetUpMessageLength == 0) return;
  std::fwrite(gSetUpMessage, 1, gSetUpMessageLength, stderr);
  std::fflush(stderr);
  if (gCheckpointing.load()) {
    std::fwrite(kSetUpCheckpointLine, 1, sizeof kSetUpCheckpointLine - 1, stdout);
    std::fflush(stdout);
  }
}

void SignalStop::searching() {
  int expected = kSetUp;
  gPhase.compare_exchange_strong(expected, kSearching);
}

void SignalStop::finishing() { gPhase.store(kFinishing); }

int SignalStop::received() const { return gSignal.load(std::memory_order_acquire); }

}  // namespace jackdaw::app
