// What runs a rank's tasks in simulated time: its worker actors, the receiver that delivers its
// messages, and under hunger splitting its splitter.
#pragma once

#include <cstdint>

#include "job.hpp"

namespace jackdaw::sim::detail {

// A task into r's pool: a new one (counted until it finishes), or one stolen from another rank.
void pushTask(Job& job, Rank& r, std::uint64_t packed, bool isNew = true);
void worker(Job& job, Rank& r, int w);
void receiver(Job& job, Rank& r);
void splitter(Job& job, Rank& r);

}  // namespace jackdaw::sim::detail
