// Depth-bounded skeleton: every node above the cutoff depth (spawnDepth, -d) has its children made
// into tasks; below it, sequential depth-first search.
//
//   jackdaw::depth_bounded::Options o;  o.runtime.threads = 4;  o.spawnDepth = 3;
//   auto r = jackdaw::depth_bounded::search<MyModel, jackdaw::Optimisation>(space, root, params, o);
//
// Children the bound already prunes are never spawned (the engine bound-tests before spawn()).
#pragma once

#include "jackdaw/skeletons/detail/depth_pool_search.hpp"

namespace jackdaw::depth_bounded {

struct Options : ParallelOptions {
  int spawnDepth = 2;  // children of nodes above this depth become tasks
};

template <SearchModel M, SearchKind K, class Launch = detail::LocalLaunch>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop, const Options& opts,
                          Launch&& launch = {}) {
  using S = detail::DepthPoolSearch<M, K>;
  struct Hooks {
    S& s;
    int cutoff;
    bool spawnsChildrenOf(int depth) const { return depth < cutoff; }
    void spawn(typename M::Node&& child, int depth) { s.push({std::move(child), depth}); }
  };
  const int cutoff = opts.spawnDepth;
  return detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts, std::forward<Launch>(launch),
                                      [cutoff](S& s) { return Hooks{s, cutoff}; });
}

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, const Options& opts = {}) {
  StopFlag stop;
  return search<M, K>(space, std::move(root), params, stop, opts);
}

}  // namespace jackdaw::depth_bounded
