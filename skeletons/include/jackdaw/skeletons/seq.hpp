// Sequential skeleton: plain depth-first search on the calling thread, no runtime (by recursion,
// core/recursive_search.hpp, or DepthFirst for a model with its own hot() loop).
//
//   auto r = jackdaw::seq::search<MyModel, jackdaw::Optimisation>(space, root, params);
//   r.objective, r.best, r.stats ...
//   seq::search<M, K>(space, root, params, stop, &live);   // nodes readable meanwhile (LiveNodes)
//
// It is the reference every other skeleton must agree with.
#pragma once

#include <chrono>
#include <stdexcept>

#include "jackdaw/core/depth_first.hpp"
#include "jackdaw/core/recursive_search.hpp"
#include "jackdaw/core/enumerators.hpp"
#include "jackdaw/core/live_nodes.hpp"
#include "jackdaw/core/result.hpp"

namespace jackdaw::seq {

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop,
                          LiveNodes* live = nullptr) {
  using T = SearchTypes<M, K>;
  if constexpr (isDecision<K>) {
    if (!params.expectedObjective) throw std::invalid_argument("decision search needs params.expectedObjective");
    if (params.initialBound)
      throw std::invalid_argument("decision search: leave params.initialBound unset (the goal is params.expectedObjective)");
  }
  const auto t0 = std::chrono::steady_clock::now();
  typename T::IncumbentT incumbent(params.initialBound);
  NodeRules<M, K> rules(space, params, &incumbent, stop);
  LiveNodes::IncumbentReader best;
  if constexpr (usesIncumbent<K>)
    if (live) best = LiveNodes::reader(incumbent, isDecision<K>);
  LiveNodes::Registration counted(live, {&rules.stats}, std::move(best));
  DfsStack<M, K> frames;
  // The recursive engine, unless the model compiles its loop per instruction set (hot(), e.g. NS):
  // recursion cannot be inlined into that one specialised function, DepthFirst's loop can.
  const auto depthFirst = [&] {
    NoHooks hooks;
    DepthFirst<M, K> dfs(rules, hooks, frames);
    dfs.run(std::move(root), 0);
  };
  if constexpr (requires { M::hot(depthFirst); }) {
    runHot<M>(depthFirst);
  } else {
    RecursiveSearch<M, K> dfs(rules, frames);
    dfs.run(std::move(root), 0);
  }

  SearchResult<M, K> r;
  r.enumerator = std::move(rules.acc);
  r.stats = rules.stats;
  r.best = incumbent.node();
  r.objective = incumbent.nodeObjective();
  r.stop = reportedStop(stop.reason(), rules.truncated);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params) {
  StopFlag stop;
  return search<M, K>(space, std::move(root), params, stop);
}

}  // namespace jackdaw::seq
