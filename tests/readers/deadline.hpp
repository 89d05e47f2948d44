// A reader call that must not block: run it with a deadline (tests only).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace jackdaw::test {

// Runs `f` on a thread; if it has not returned after `seconds`, the test fails and the process
// ends (a blocked read cannot be cancelled, and the test must not hang).
inline void withDeadline(const std::string& what, double seconds, const std::function<void()>& f) {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread t([&] {
    f();
    std::lock_guard lock(m);
    done = true;
    cv.notify_all();
  });
  std::unique_lock lock(m);
  if (!cv.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return done; })) {
    std::fprintf(stderr, "FAILED: %s did not return within %.0f s (blocked?)\n", what.c_str(), seconds);
    std::fflush(stderr);
    std::_Exit(1);
  }
  lock.unlock();
  t.join();
}

}  // namespace jackdaw::test
