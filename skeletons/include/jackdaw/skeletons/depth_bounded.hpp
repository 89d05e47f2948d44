// Depth-bounded skeleton: every node above the cutoff depth (params.spawnDepth, -d) has its
// children made into tasks; below it, sequential depth-first search.
//
//   jackdaw::ParallelOptions o; o.runtime.threads = 4;
//   auto r = jackdaw::depth_bounded::search<MyModel, jackdaw::Optimisation>(space, root, params, o);
//
// Children the bound already prunes are never spawned (the engine bound-tests before spawn()).
#pragma once

#include "jackdaw/skeletons/detail/depth_pool_search.hpp"

namespace jackdaw::depth_bounded {

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop,
                          const ParallelOptions& opts) {
  using S = detail::DepthPoolSearch<M, K>;
  struct Hooks {
    S& s;
    int cutoff;
    bool spawnsChildrenOf(int depth) const { return depth < cutoff; }
    void spawn(typename M::Node&& child, int depth) { s.push({std::move(child), depth}); }
  };
  return detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts,
                                      [](S& s) { return Hooks{s, s.params().spawnDepth}; });
}

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, const ParallelOptions& opts = {}) {
  StopFlag stop;
  return search<M, K>(space, std::move(root), params, stop, opts);
}

}  // namespace jackdaw::depth_bounded
