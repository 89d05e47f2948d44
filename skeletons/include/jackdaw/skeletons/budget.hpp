// Budget skeleton: depth-first search until `budget` (-b) backtracks are spent, then every
// unexplored sibling at the shallowest open level becomes a task and the count restarts (looked at
// every 64 to 1,024 visits: budgetEvery). Between two such splits, a hungry worker gets the shallowest
// siblings at once (splitOnHunger).
//
//   jackdaw::budget::Options o;  o.runtime.threads = 4;  o.budget = 10000;
//   auto r = jackdaw::budget::search<MyModel, jackdaw::Enumeration<jackdaw::CountNodes>>(space, root, params, o);
//   o.grain.automatic = true;   // or: each worker picks its budget so a slice lasts o.grain.targetSeconds
#pragma once

#include <algorithm>
#include <cstdint>

#include "jackdaw/skeletons/detail/depth_pool_search.hpp"

namespace jackdaw::budget {

struct Options : ParallelOptions {
  std::uint64_t budget = 100000;  // backtracks before unexplored siblings are split off
  GrainOptions grain{};           // automatic: the budget is chosen from measured time (detail/grain.hpp)
};

namespace detail {

using jackdaw::detail::RunningTask;

// How often a task's budget is looked at, at the worker's pulse, out of the engine's loop
// (depth_pool_search.hpp): every budget / 64 visits, at least every 64 (every `budget` under 64)
// and at most every 1,024. A slice ends at the first look after its budget is spent, so it
// overshoots by under that many visits' backtracks, about 1/64 of a large budget; where a task
// splits still depends on the task alone (its count and its visits start with it). Each look is a
// call the engine's loop makes out of line: on NS, where a visit takes a few nanoseconds, one every
// 64 visits cost one worker 1-5 % by run (bench/results/engine_overhead.md).
constexpr unsigned budgetEvery(std::uint64_t budget) {
  const std::uint64_t b = std::max<std::uint64_t>(budget, 1);
  return static_cast<unsigned>(std::clamp<std::uint64_t>(b / 64, std::min<std::uint64_t>(b, 64), 1024));
}
static_assert(budgetEvery(0) == 1 && budgetEvery(10) == 10 && budgetEvery(4096) == 64 && budgetEvery(6400) == 100 &&
              budgetEvery(100000) == 1024);
// Hungry: the hunger rule (ParallelOptions::splitOnHunger) too, every kHungerEvery visits.
template <bool Hungry>
constexpr unsigned pulseEvery(std::uint64_t budget) {
  return Hungry ? std::min(kHungerEvery, budgetEvery(budget)) : budgetEvery(budget);
}

// A fixed budget: the task splits once this worker's backtrack count (SearchStats::backtracks,
// those a model counts in bulk included) has grown by `budget` since the slice began.
template <SearchModel M, SearchKind K, bool Hungry>
struct BudgetPulse {
  using S = jackdaw::detail::DepthPoolSearch<M, K>;
  S& s;
  std::uint64_t budget;
  std::uint64_t sliceFrom;  // the backtrack count when this slice began
  unsigned every() const { return detail::pulseEvery<Hungry>(budget); }
  void operator()(const RunningTask<S>& task, int depth) {
    if constexpr (Hungry) jackdaw::detail::hungerRule(s, task, depth);
    const std::uint64_t now = task.backtracks();
    if (now - sliceFrom < budget) return;
    sliceFrom = now;
    jackdaw::detail::splitIntoPool(s, task.split(depth));
  }
};
template <SearchModel M, SearchKind K, bool Hungry>
struct BudgetHooks {
  BudgetPulse<M, K, Hungry> pulse;
  BudgetPulse<M, K, Hungry> makePulse() const { return pulse; }
};

// The automatic budget: the worker's budget lives in its slot, from one task to the next; a slice
// starts with the task.
template <SearchModel M, SearchKind K, bool Hungry>
struct AutoBudgetPulse {
  using S = jackdaw::detail::DepthPoolSearch<M, K>;
  using Clock = jackdaw::detail::GrainClock;
  S& s;
  jackdaw::detail::AutoGrain& grain;
  double target;
  std::uint64_t sliceFrom;
  Clock::time_point since = Clock::now();
  unsigned every() const { return detail::pulseEvery<Hungry>(grain.value); }
  void operator()(const RunningTask<S>& task, int depth) {
    if constexpr (Hungry) jackdaw::detail::hungerRule(s, task, depth);
    const std::uint64_t spent = task.backtracks() - sliceFrom;
    if (spent < grain.value) return;
    const auto now = Clock::now();
    grain.retune(spent, since, now, target);
    since = now;
    sliceFrom += spent;
    jackdaw::detail::splitIntoPool(s, task.split(depth));
  }
};
template <SearchModel M, SearchKind K, bool Hungry>
struct AutoBudgetHooks {
  AutoBudgetPulse<M, K, Hungry> pulse;
  AutoBudgetPulse<M, K, Hungry> makePulse() const { return pulse; }
};

template <SearchModel M, SearchKind K, bool Hungry, class Launch>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop, const Options& opts,
                          Launch&& launch) {
  using S = jackdaw::detail::DepthPoolSearch<M, K>;
  if (opts.grain.automatic) {
    const double target = opts.grain.targetSeconds;
    return jackdaw::detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts,
                                                 std::forward<Launch>(launch), Hungry,
                                                 [target](S& s, const RunningTask<S>& task) {
                                                   jackdaw::detail::AutoGrain& g = task.slot.grain;
                                                   if (g.value == 0) g.value = jackdaw::detail::AutoGrain::kFirstBudget;
                                                   return AutoBudgetHooks<M, K, Hungry>{{s, g, target, task.backtracks()}};
                                                 });
  }
  const std::uint64_t budget = opts.budget;
  return jackdaw::detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts, std::forward<Launch>(launch),
                                               Hungry, [budget](S& s, const RunningTask<S>& task) {
                                                 return BudgetHooks<M, K, Hungry>{{s, budget, task.backtracks()}};
                                               });
}

}  // namespace detail

template <SearchModel M, SearchKind K, class Launch = jackdaw::detail::LocalLaunch>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop, const Options& opts,
                          Launch&& launch = {}) {
  return jackdaw::detail::withHungerRule(opts, launch, [&]<class Hungry>(Hungry) {
    return detail::search<M, K, Hungry::value>(space, std::move(root), params, stop, opts, std::forward<Launch>(launch));
  });
}

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, const Options& opts = {}) {
  StopFlag stop;
  return search<M, K>(space, std::move(root), params, stop, opts);
}

}  // namespace jackdaw::budget
