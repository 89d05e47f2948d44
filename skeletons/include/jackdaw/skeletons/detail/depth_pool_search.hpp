// The common shape of depth_bounded, budget and stack_stealing: a depth pool of tasks, the root
// as the first task, and every task a depth-first search whose hooks (when to spawn or split)
// are the skeleton's own. A skeleton supplies only hooksFor(search, task) -> Hooks:
//
//   using S = detail::DepthPoolSearch<M, K>;
//   struct Hooks { S& s; ... };                       // engine hooks, see core/depth_first.hpp
//   return detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts, launch,
//                                       splitsForThieves, [](S& s, const RunningTask<S>& t) { return Hooks{s, ...}; });
// splitsForThieves: the hooks split for a remote thief that found the pool empty (requestSplit).
//
// A split rule that runs now and then (budget's, the hunger rule) is the hooks' pulse, a separate
// object the hooks make (makePulse() const), with
//   unsigned every() const                           visits of the task between two calls (> 0)
//   void operator()(const RunningTask<S>&, int depth) at the visit of a node at `depth`: may split
// called out of line through the worker's pulse (NodeRules::setPulse). So neither the rule's
// count nor its split's call sits in the engine's loop, where a call that splits made the compiler
// keep the loop's values in memory (NS: 5 % of one worker; bench/results/engine_overhead.md), and
// the hooks, whose address the pulse never holds, keep theirs in registers.
#pragma once

#include <cstddef>
#include <cstdint>
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

// A thief's ring seen at a hunger check (ParallelSearch::bellRang): with nothing queued the worker
// splits for it now, as splitIntoPool would for the thief's refused request (forThief); if that
// split gives nothing, or tasks are queued, the driver is told to read the request.
template <class S, class Split>
[[gnu::noinline, gnu::cold]] void answerRing(S& s, Split split, std::size_t maxTasks, bool acrossLevels) {
  if (s.answerBell() && splitIntoPool(s, split, maxTasks, acrossLevels, true) < 0) s.bellUnanswered();
}

// What a pulse sees of the task running on a worker: its frames (the storage its engine took from
// the slot) and where it began.
template <class S>
struct RunningTask {
  using M = typename S::Model;
  using K = typename S::T::Kind;
  typename S::Slot& slot;
  typename DfsStack<M, K>::View storage;
  int rootDepth;
  // The task's open frames at the visit of a node at `depth` (DepthFirst::framesAtVisit).
  DfsSplit<M, K> split(int depth) const {
    return {slot.rules, storage.first(DepthFirst<M, K>::framesAtVisit(rootDepth, depth))};
  }
  std::uint64_t backtracks() const { return slot.rules.stats.backtracks; }  // this worker's, so far
};

// The hooks' pulse (if they make one), registered on the task's worker while the task runs.
template <class S, class Hooks>
class TaskPulse {
 public:
  TaskPulse(S&, const RunningTask<S>&, const Hooks&) {}
};
template <class S, class Hooks>
  requires requires(const Hooks& h) { h.makePulse(); }
class TaskPulse<S, Hooks> {
 public:
  TaskPulse(S& s, const RunningTask<S>& task, const Hooks& hooks) : s_(s), task_(task), pulse_(hooks.makePulse()) {
    s.beginTaskPulse(task.slot, &TaskPulse::fire, this, pulse_.every());
  }
  ~TaskPulse() { s_.endTaskPulse(task_.slot); }
  TaskPulse(const TaskPulse&) = delete;
  TaskPulse& operator=(const TaskPulse&) = delete;

 private:
  static void fire(void* self, int depth) {
    auto& p = *static_cast<TaskPulse*>(self);
    p.pulse_(p.task_, depth);
  }
  S& s_;
  const RunningTask<S>& task_;
  decltype(std::declval<const Hooks&>().makePulse()) pulse_;
};

// The hunger rule of ParallelOptions::splitOnHunger, for a skeleton's pulse every kHungerEvery
// visits: if a worker of this rank is hungry, or a remote thief, and the pool is empty, the
// hungerChunk shallowest unexplored siblings (level after level) go to this worker's queue
// (core/hunger_rule.hpp). A thief's ring (watchBell) is answered first (answerRing).
template <class S>
void hungerRule(S& s, const RunningTask<S>& task, int depth) {
  if (s.bellRang()) [[unlikely]] return answerRing(s, task.split(depth), hungerChunk(true), true);
  if (!s.hungry()) return;
  splitIntoPool(s, task.split(depth), hungerChunk(s.remoteHungry()), true, true);
}

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
  // The hooks' pulse is registered outside the model's hot function (runHot); a copy of the hooks
  // and the engine are built inside it, as locals whose addresses never leave it: their fields
  // (the cutoff, the stack's size and top) can live in registers instead of being reloaded after
  // every store the node's code makes, and no per-task code of the pulse sits beside the loop.
  auto body = [&s, &hooksFor](typename S::Slot& slot, typename S::TaskT&& t) {
    const RunningTask<S> task{slot, slot.stack.storage(), t.depth};  // before the engine takes the storage
    const auto hooks = hooksFor(s, task);
    using Hooks = std::remove_const_t<decltype(hooks)>;
    TaskPulse<S, Hooks> pulse(s, task, hooks);
    runHot<M>([&] {
      Hooks h = hooks;
      DepthFirst<M, K, Hooks> dfs(slot.rules, h, slot.stack);
      dfs.run(std::move(t.node), t.depth);
    });
  };
  return runParallel(s, opts, body, [&] { s.push({std::move(root), 0}); }, std::forward<Launch>(launch));
}

}  // namespace jackdaw::detail
