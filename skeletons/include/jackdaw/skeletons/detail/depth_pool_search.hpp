// The common shape of depth_bounded, budget and stack_stealing: a depth pool of tasks, the root
// as the first task, and every task a depth-first search whose hooks (when to spawn or split)
// are the skeleton's own. A skeleton supplies only hooksFor(search) -> Hooks:
//
//   using S = detail::DepthPoolSearch<M, K>;
//   struct Hooks { S& s; ... };                       // engine hooks, see core/depth_first.hpp
//   return detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts, launch,
//                                       splitsForThieves, [](S& s) { return Hooks{s, ...}; });
// splitsForThieves: the hooks split for a remote thief that found the pool empty (requestSplit).
#pragma once

#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

#include "jackdaw/core/hunger_rule.hpp"
#include "jackdaw/core/worker_queues.hpp"
#include "jackdaw/skeletons/detail/parallel_search.hpp"

namespace jackdaw::detail {

template <SearchModel M, SearchKind K>
using DepthPoolSearch = ParallelSearch<M, K, WorkerQueues<Task<typename M::Node>>>;

// Hands up to maxTasks unexplored siblings of the shallowest open level of a task's engine (`split`,
// DepthFirst::split(): a value, so the engine's address never escapes its hot loop; with acrossLevels,
// of the shallowest levels, level after level) to the pool, in the model's order; returns the
// shallowest depth given, or -1 if none. forThief: into this worker's own queue (the hunger rule),
// else into the pool's level-ordered shared part (budget's splits).
// Out of line and cold: a split is rare (once per budget, or when a worker is hungry), and a model
// whose hot() flattens its task loop (ns) would otherwise inline it into every node's path.
template <class S, class Split>
[[gnu::noinline, gnu::cold]] int splitIntoPool(S& s, Split split, std::size_t maxTasks = std::numeric_limits<std::size_t>::max(),
                  bool acrossLevels = false, bool forThief = false) {
  int depth = -1;
  const bool remote = forThief && s.remoteHungry();
  split.shallowest(
      maxTasks,
      [&](auto&& c, int d) {
        if (depth < 0) depth = d;
        s.push({std::move(c), d}, forThief);
      },
      acrossLevels);
  if (forThief && depth >= 0) s.publish();
  if (remote && depth >= 0) s.splitForThief();
  return depth;
}

// The hunger rule of ParallelOptions::splitOnHunger, for a skeleton's hooks to call after each
// node: every kHungerEvery nodes, if a worker of this rank is hungry, or a remote thief, and the
// pool is empty, the hungerChunk shallowest unexplored siblings (level after level) go to this
// worker's queue (core/hunger_rule.hpp).
template <class S>
struct HungerSplit {
  S& s;
  unsigned countdown = kHungerEvery;
  template <class Dfs>
  void afterNode(Dfs& dfs) {
    if (--countdown != 0) return;
    countdown = kHungerEvery;
    if (!s.hungry()) return;
    splitIntoPool(s, dfs.split(), hungerChunk(s.remoteHungry()), true, true);
  }
};

// run(std::true_type{}) under ParallelOptions::splitOnHunger, else run(std::false_type{}): a
// skeleton's hooks are compiled with the hunger rule or without it, never testing the flag per node.
// One worker with no other rank (a launch that spans no other process) is never hungry: it runs
// without the rule.
template <class Launch>
bool someoneMayBeHungry(const ParallelOptions& o, const Launch& launch) {
  bool otherRanks = false;
  if constexpr (requires { launch.spansProcesses(); }) otherRanks = launch.spansProcesses();
  return otherRanks || o.runtime.workers() > 1;
}
template <class Launch, class Run>
decltype(auto) withHungerRule(const ParallelOptions& o, const Launch& launch, Run&& run) {
  if (o.splitOnHunger && someoneMayBeHungry(o, launch)) return run(std::true_type{});
  return run(std::false_type{});
}

template <SearchModel M, SearchKind K, class Launch, class HooksFor>
SearchResult<M, K> searchFromRoot(const typename M::Space& space, typename M::Node root,
                                  const typename SearchTypes<M, K>::Params& params, StopFlag& stop,
                                  const ParallelOptions& opts, Launch&& launch, bool splitsForThieves,
                                  HooksFor hooksFor) {
  using S = DepthPoolSearch<M, K>;
  S s(space, params, stop, opts.runtime);
  s.setSplitsForThieves(splitsForThieves);
  // The hooks and the engine are built inside the model's hot function (runHot), as locals whose
  // addresses never leave it: their fields (the budget's count, the engine's references) can live
  // in registers instead of being reloaded after every store the node's code makes.
  auto body = [&s, &hooksFor](typename S::Slot& slot, typename S::TaskT&& t) {
    runHot<M>([&] {
      auto hooks = hooksFor(s);
      DepthFirst<M, K, decltype(hooks)> dfs(slot.rules, hooks, slot.stack);
      dfs.run(std::move(t.node), t.depth);
    });
  };
  return runParallel(s, opts, body, [&] { s.push({std::move(root), 0}); }, std::forward<Launch>(launch));
}

}  // namespace jackdaw::detail
