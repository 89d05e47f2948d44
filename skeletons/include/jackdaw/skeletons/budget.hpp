// Budget skeleton: depth-first search until `budget` (-b) backtracks are spent, then every
// unexplored sibling at the shallowest open level becomes a task and the count restarts. Between
// two such splits, a hungry worker gets the shallowest sibling at once (splitOnHunger).
//
//   jackdaw::budget::Options o;  o.runtime.threads = 4;  o.budget = 10000;
//   auto r = jackdaw::budget::search<MyModel, jackdaw::Enumeration<jackdaw::CountNodes>>(space, root, params, o);
//   o.grain.automatic = true;   // or: each worker picks its budget so a slice lasts o.grain.targetSeconds
#pragma once

#include <cstdint>

#include "jackdaw/skeletons/detail/depth_pool_search.hpp"

namespace jackdaw::budget {

struct Options : ParallelOptions {
  std::uint64_t budget = 100000;  // backtracks before unexplored siblings are split off
  GrainOptions grain{};           // automatic: the budget is chosen from measured time (detail/grain.hpp)
};

namespace detail {

// A fixed budget. Hungry: after each node, the hunger rule (ParallelOptions::splitOnHunger) too.
template <SearchModel M, SearchKind K, bool Hungry>
struct BudgetHooks {
  using S = jackdaw::detail::DepthPoolSearch<M, K>;
  S& s;
  std::uint64_t budget;
  jackdaw::detail::HungerSplit<S> hunger{s};
  std::uint64_t spent = 0;
  void afterNode(DepthFirst<M, K, BudgetHooks>& dfs)
    requires Hungry
  {
    hunger.afterNode(dfs);
  }
  void afterBacktrack(DepthFirst<M, K, BudgetHooks>& dfs) {
    if (++spent < budget) return;
    spent = 0;
    jackdaw::detail::splitIntoPool(s, dfs.split());
  }
};

// The automatic budget: the worker's budget lives in its slot, from one task to the next; a slice
// starts with the task.
template <SearchModel M, SearchKind K, bool Hungry>
struct AutoBudgetHooks {
  using S = jackdaw::detail::DepthPoolSearch<M, K>;
  using Clock = jackdaw::detail::GrainClock;
  S& s;
  jackdaw::detail::AutoGrain& grain;
  double target;
  jackdaw::detail::HungerSplit<S> hunger{s};
  Clock::time_point since = Clock::now();
  std::uint64_t spent = 0;
  void afterNode(DepthFirst<M, K, AutoBudgetHooks>& dfs)
    requires Hungry
  {
    hunger.afterNode(dfs);
  }
  void afterBacktrack(DepthFirst<M, K, AutoBudgetHooks>& dfs) {
    if (++spent < grain.value) return;
    const auto now = Clock::now();
    grain.retune(spent, since, now, target);
    since = now;
    spent = 0;
    jackdaw::detail::splitIntoPool(s, dfs.split());
  }
};

template <SearchModel M, SearchKind K, bool Hungry, class Launch>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop, const Options& opts,
                          Launch&& launch) {
  using S = jackdaw::detail::DepthPoolSearch<M, K>;
  if (opts.grain.automatic) {
    const double target = opts.grain.targetSeconds;
    return jackdaw::detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts,
                                                 std::forward<Launch>(launch), Hungry, [target](S& s) {
                                                   jackdaw::detail::AutoGrain& g = s.self().grain;
                                                   if (g.value == 0) g.value = jackdaw::detail::AutoGrain::kFirstBudget;
                                                   return AutoBudgetHooks<M, K, Hungry>{s, g, target};
                                                 });
  }
  const std::uint64_t budget = opts.budget;
  return jackdaw::detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts, std::forward<Launch>(launch),
                                               Hungry, [budget](S& s) { return BudgetHooks<M, K, Hungry>{s, budget}; });
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
