// A test's hook into a comm thread: after a quarter of its turns, at random, it stalls for up to
// maxUs, so that the thread's actions interleave with the workers' and the peers' in orders a quiet
// run never shows. Passed as CommOptions::events (CommEvents::turnEnded).
#pragma once

#include <chrono>
#include <cstdint>
#include <random>
#include <thread>

#include "jackdaw/comm/comm_events.hpp"

namespace jackdaw::comm::testing {

class RandomStalls final : public CommEvents {
 public:
  RandomStalls(unsigned maxUs, std::uint64_t seed, int rank) : maxUs_(maxUs), rng_(seed ^ (0x9e3779b97f4a7c15ULL * (rank + 1))) {}
  void turnEnded() override {
    if (maxUs_ > 0 && (rng_() & 3) == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng_() % (maxUs_ + 1)));
  }

 private:
  unsigned maxUs_;
  std::mt19937_64 rng_;
};

}  // namespace jackdaw::comm::testing
