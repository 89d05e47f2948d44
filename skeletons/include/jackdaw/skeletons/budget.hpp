// Budget skeleton: depth-first search until `budget` (-b) backtracks are spent, then every
// unexplored sibling at the shallowest open level becomes a task and the count restarts.
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

template <SearchModel M, SearchKind K, class Launch = detail::LocalLaunch>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop, const Options& opts,
                          Launch&& launch = {}) {
  using S = detail::DepthPoolSearch<M, K>;
  using Clock = detail::GrainClock;
  struct Hooks {
    S& s;
    std::uint64_t budget;
    std::uint64_t spent = 0;
    void afterBacktrack(DepthFirst<M, K, Hooks>& dfs) {
      if (++spent < budget) return;
      spent = 0;
      detail::splitIntoPool(s, dfs);
    }
  };
  // The worker's budget lives in its slot, from one task to the next; a slice starts with the task.
  struct AutoHooks {
    S& s;
    detail::AutoGrain& grain;
    double target;
    Clock::time_point since = Clock::now();
    std::uint64_t spent = 0;
    void afterBacktrack(DepthFirst<M, K, AutoHooks>& dfs) {
      if (++spent < grain.value) return;
      const auto now = Clock::now();
      grain.retune(spent, since, now, target);
      since = now;
      spent = 0;
      detail::splitIntoPool(s, dfs);
    }
  };
  if (opts.grain.automatic) {
    const double target = opts.grain.targetSeconds;
    return detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts, std::forward<Launch>(launch),
                                        [target](S& s) {
                                          detail::AutoGrain& g = s.self().grain;
                                          if (g.value == 0) g.value = detail::AutoGrain::kFirstBudget;
                                          return AutoHooks{s, g, target};
                                        });
  }
  const std::uint64_t budget = opts.budget;
  return detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts, std::forward<Launch>(launch),
                                      [budget](S& s) { return Hooks{s, budget}; });
}

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, const Options& opts = {}) {
  StopFlag stop;
  return search<M, K>(space, std::move(root), params, stop, opts);
}

}  // namespace jackdaw::budget
