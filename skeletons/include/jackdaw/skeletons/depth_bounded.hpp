// Depth-bounded skeleton: every node above the cutoff depth (spawnDepth, -d) has its children made
// into tasks; below it, depth-first search that hands a hungry worker its shallowest unexplored
// siblings within a few nodes (ParallelOptions::splitOnHunger).
//
//   jackdaw::depth_bounded::Options o;  o.runtime.threads = 4;  o.spawnDepth = 3;
//   auto r = jackdaw::depth_bounded::search<MyModel, jackdaw::Optimisation>(space, root, params, o);
//   o.grain.automatic = true;   // or: start at spawnDepth and deepen where tasks run long (detail/grain.hpp);
//   o.spawnDepth = jackdaw::kAutoStartDepth;   // the start the apps' -d auto uses
//
// Children the bound already prunes are never spawned (the engine bound-tests before spawn()).
#pragma once

#include <atomic>

#include "jackdaw/skeletons/detail/depth_pool_search.hpp"

namespace jackdaw::depth_bounded {

struct Options : ParallelOptions {
  int spawnDepth = 2;    // children of nodes above this depth become tasks
  GrainOptions grain{};  // automatic: the cutoff deepens while it runs (detail/grain.hpp)
};

namespace detail {

using jackdaw::detail::DepthPoolSearch;
using jackdaw::detail::RunningTask;

// The hunger rule (ParallelOptions::splitOnHunger) below a fixed cutoff, every kHungerEvery
// visits at the worker's pulse (depth_pool_search.hpp); without it the hooks make no pulse.
template <SearchModel M, SearchKind K>
struct HungerPulse {
  using S = DepthPoolSearch<M, K>;
  S& s;
  unsigned every() const { return kHungerEvery; }
  void operator()(const RunningTask<S>& task, int depth) { jackdaw::detail::hungerRule(s, task, depth); }
};

// A fixed cutoff.
template <SearchModel M, SearchKind K, bool Hungry>
struct CutoffHooks {
  using S = DepthPoolSearch<M, K>;
  S& s;
  int cutoff;
  bool spawnsChildrenOf(int depth) const { return depth < cutoff; }
  void spawn(typename M::Node&& child, int depth) { s.push({std::move(child), depth}); }
  HungerPulse<M, K> makePulse() const
    requires Hungry
  {
    return {s};
  }
};

// One cutoff per search (per rank), only ever deepened. Every kEvery visits a task checks whether
// anyone is hungry (two relaxed loads), and only then reads the clock; Hungry: the hunger rule
// every kHungerEvery visits first.
template <SearchModel M, SearchKind K, bool Hungry>
struct AutoCutoffPulse {
  using S = DepthPoolSearch<M, K>;
  using Clock = jackdaw::detail::GrainClock;
  static constexpr unsigned kEvery = 64;
  S& s;
  std::atomic<int>& cutoff;
  jackdaw::detail::AutoGrain& grain;
  double target;
  Clock::time_point since = Clock::now();
  unsigned sinceCheck = 0;  // visits since the last check
  unsigned every() const { return Hungry ? kHungerEvery : kEvery; }
  void operator()(const RunningTask<S>& task, int depth) {
    if constexpr (Hungry) {
      jackdaw::detail::hungerRule(s, task, depth);
      if ((sinceCheck += kHungerEvery) < kEvery) return;
      sinceCheck = 0;
    }
    if (!s.hungry()) return;
    const auto now = Clock::now();
    if (std::chrono::duration<double>(now - since).count() < target) return;
    since = now;
    const int level = jackdaw::detail::splitIntoPool(s, task.split(depth));
    if (level < 0) return;
    // The level just split off fans out one more level when its tasks run, as does every
    // later node that shallow.
    int cur = cutoff.load(std::memory_order_relaxed);
    while (cur < level + 1 && !cutoff.compare_exchange_weak(cur, level + 1, std::memory_order_relaxed)) {
    }
    grain.value = std::max<std::uint64_t>(grain.value, static_cast<std::uint64_t>(level + 1));
    ++grain.changes;
  }
};
template <SearchModel M, SearchKind K, bool Hungry>
struct AutoCutoffHooks {
  using S = DepthPoolSearch<M, K>;
  S& s;
  std::atomic<int>& cutoff;
  jackdaw::detail::AutoGrain& grain;
  double target;
  bool spawnsChildrenOf(int depth) const { return depth < cutoff.load(std::memory_order_relaxed); }
  void spawn(typename M::Node&& child, int depth) { s.push({std::move(child), depth}); }
  AutoCutoffPulse<M, K, Hungry> makePulse() const { return {s, cutoff, grain, target}; }
};

template <SearchModel M, SearchKind K, bool Hungry, class Launch>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop, const Options& opts,
                          Launch&& launch) {
  using S = DepthPoolSearch<M, K>;
  if (opts.grain.automatic) {
    std::atomic<int> cutoff{opts.spawnDepth};
    const double target = opts.grain.targetSeconds;
    return jackdaw::detail::searchFromRoot<M, K>(
        space, std::move(root), params, stop, opts, std::forward<Launch>(launch), Hungry,
        [&cutoff, target](S& s, const RunningTask<S>& task) {
          jackdaw::detail::AutoGrain& g = task.slot.grain;
          const int c = cutoff.load(std::memory_order_relaxed);
          g.value = std::max<std::uint64_t>(g.value, static_cast<std::uint64_t>(c));
          return AutoCutoffHooks<M, K, Hungry>{s, cutoff, g, target};
        });
  }
  const int cutoff = opts.spawnDepth;
  return jackdaw::detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts, std::forward<Launch>(launch),
                                               Hungry, [cutoff](S& s, const RunningTask<S>&) {
                                                 return CutoffHooks<M, K, Hungry>{s, cutoff};
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

}  // namespace jackdaw::depth_bounded
