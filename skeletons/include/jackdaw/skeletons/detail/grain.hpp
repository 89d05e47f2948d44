// Automatic grain: the runtime, not the user's guess, decides how much work a task keeps before
// it gives some away, from time it measures.
//
//   budget auto          every worker retunes its budget (backtracks before a split) at each split,
//                        so that the next slice of work lasts about `target` seconds.
//   spawn depth auto     the cutoff starts at the given depth; a task that has run longer than
//                        `target` while workers are hungry (here, or a remote thief) splits off its
//                        shallowest unexplored level at once, and the cutoff deepens to that level
//                        so that later tasks that shallow fan out too.
//
// The target trades the cost of making a task (about half a microsecond here,
// bench/results/engine_overhead.md) against how soon a hungry worker is fed.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace jackdaw {

// Where an automatic cutoff is best started (depth_bounded::Options::spawnDepth under
// grain.automatic; the apps' -d auto): the root's children are the first tasks, and the cutoff
// deepens only where a task runs long while workers are hungry. Starting coarse won on MaxClique
// (-d 1 beats -d 2 at every worker count) and tied on NS and UTS (bench/results/grain_sweep.md).
inline constexpr int kAutoStartDepth = 1;

struct GrainOptions {
  bool automatic = false;        // choose the setting from measured time (budget: from 1,024
                                 // backtracks; spawn depth: from the skeleton's spawnDepth)
  double targetSeconds = 0.002;  // how long a worker keeps its work between two splits
};

namespace detail {

using GrainClock = std::chrono::steady_clock;

// One worker's automatic setting (only that worker touches it).
struct AutoGrain {
  static constexpr std::uint64_t kFirstBudget = 1024;  // small: the first splits come early (ramp-up)
  static constexpr std::uint64_t kMinBudget = 16;
  static constexpr std::uint64_t kMaxBudget = std::uint64_t{1} << 40;

  std::uint64_t value = 0;    // budget auto: the budget; spawn depth auto: the deepest cutoff seen
  std::uint64_t changes = 0;  // retunes, or deepenings this worker made

  // Budget auto: `spent` backtracks ran from `since` to `now`; aim the next slice at `target`
  // seconds, moving at most 4x per slice so that one odd slice cannot swing it.
  void retune(std::uint64_t spent, GrainClock::time_point since, GrainClock::time_point now, double target) {
    const double dt = std::chrono::duration<double>(now - since).count();
    const double f = std::clamp(dt > 0 ? target / dt : 4.0, 0.25, 4.0);
    const double next = std::clamp(static_cast<double>(spent) * f, static_cast<double>(kMinBudget),
                                   static_cast<double>(kMaxBudget));
    value = static_cast<std::uint64_t>(next);
    ++changes;
  }
};

}  // namespace detail
}  // namespace jackdaw
