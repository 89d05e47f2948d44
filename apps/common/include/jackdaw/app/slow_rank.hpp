// Contention experiments (--slow-ranks, --slowdown): an observer that makes this rank slower by
// following every task with (factor − 1) × the task's own time of busy work. Injected into the
// search like any observer; the engine knows nothing of it.
#pragma once

#include <chrono>

#include "jackdaw/core/search_observer.hpp"
#include "jackdaw/core/stop.hpp"

namespace jackdaw::app {

class SlowRank final : public SearchObserver {
 public:
  SlowRank(double factor, const StopFlag& stop) : factor_(factor), stop_(stop) {}
  void taskFinished(const TaskSpan& task) override {
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(task.seconds * (factor_ - 1.0)));
    while (std::chrono::steady_clock::now() < until && !stop_.requested()) {
    }
  }

 private:
  double factor_;
  const StopFlag& stop_;
};

}  // namespace jackdaw::app
