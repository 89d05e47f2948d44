// Depth-bounded skeleton: every node above the cutoff depth (params.spawnDepth, -d) has its
// children made into tasks; below it, sequential depth-first search.
//
//   jackdaw::ParallelOptions o; o.runtime.threads = 4;
//   auto r = jackdaw::depth_bounded::search<MyModel, jackdaw::Optimisation>(space, root, params, o);
//
// Children the bound already prunes are never spawned (the engine bound-tests before spawn()).
#pragma once

#include "jackdaw/core/work_pool.hpp"
#include "jackdaw/skeletons/detail/parallel_search.hpp"

namespace jackdaw::depth_bounded {

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop,
                          const ParallelOptions& opts) {
  using S = detail::ParallelSearch<M, K, DepthPool<detail::Task<typename M::Node>>>;
  S s(space, params, stop, opts.runtime);
  struct Hooks {
    S& s;
    int cutoff;
    bool spawnsChildrenOf(int depth) const { return depth < cutoff; }
    void spawn(typename M::Node&& child, int depth) { s.push({std::move(child), depth}); }
  };
  auto body = [&s](typename S::Slot& slot, typename S::TaskT&& t) {
    Hooks h{s, s.params().spawnDepth};
    DepthFirst<M, K, Hooks> dfs(slot.rules, h);
    dfs.run(std::move(t.node), t.depth);
  };
  return detail::runParallel(s, opts, body, [&] { s.push({std::move(root), 0}); });
}

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, const ParallelOptions& opts = {}) {
  StopFlag stop;
  return search<M, K>(space, std::move(root), params, stop, opts);
}

}  // namespace jackdaw::depth_bounded
