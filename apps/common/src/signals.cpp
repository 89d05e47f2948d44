#include "jackdaw/app/signals.hpp"

#include <csignal>
#include <chrono>
#include <stdexcept>

namespace jackdaw::app {

namespace {
// The one piece of process-global state: a signal handler can reach nothing else.
std::atomic<int> gSignal{0};
std::atomic<bool> gInstalled{false};
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

extern "C" void onSignal(int sig) {
  int expected = 0;
  gSignal.compare_exchange_strong(expected, sig);
}

constexpr int kSignals[] = {SIGUSR1, SIGTERM, SIGINT};
}  // namespace

SignalStop::SignalStop(std::function<void(int)> onSignal) : onSignal_(std::move(onSignal)) {
  if (gInstalled.exchange(true)) throw std::logic_error("only one SignalStop may exist at a time");
  gSignal.store(0);
  struct sigaction sa {};
  sa.sa_handler = jackdaw::app::onSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int s : kSignals) sigaction(s, &sa, nullptr);
  watcher_ = std::thread([this] {
    while (!quit_.load(std::memory_order_acquire)) {
      if (const int s = gSignal.load(std::memory_order_acquire); s != 0) {
        onSignal_(s);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
}

SignalStop::~SignalStop() {
  quit_.store(true, std::memory_order_release);
  watcher_.join();
  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  for (int s : kSignals) sigaction(s, &sa, nullptr);
  gInstalled.store(false);
}

int SignalStop::received() const { return gSignal.load(std::memory_order_acquire); }

}  // namespace jackdaw::app
