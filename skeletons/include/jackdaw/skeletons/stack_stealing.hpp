// Stack-stealing skeleton: workers run depth-first search; while some worker is idle and the pool
// is empty, a busy worker answers at its next node by splitting off its shallowest unexplored
// sibling (or, with chunked, the whole level) into the pool, whose tokens wake the idle ones.
//
//   jackdaw::stack_stealing::Options o;  o.runtime.threads = 4;  o.chunked = true;
//   auto r = jackdaw::stack_stealing::search<MyModel, jackdaw::Decision>(space, root, params, o);
//
// The request is implicit: "idle workers > 0 and pool empty" is two relaxed atomic loads per
// node, and no idle worker ever spins; a lone worker with no other rank skips even that.
#pragma once

#include <cstddef>
#include <limits>

#include "jackdaw/skeletons/detail/depth_pool_search.hpp"

namespace jackdaw::stack_stealing {

struct Options : ParallelOptions {
  bool chunked = false;  // hand over a whole level instead of one node
};

template <SearchModel M, SearchKind K, class Launch = detail::LocalLaunch>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop, const Options& opts,
                          Launch&& launch = {}) {
  using S = detail::DepthPoolSearch<M, K>;
  const std::size_t perSplit = opts.chunked ? std::numeric_limits<std::size_t>::max() : 1;
  // Answers: compiled with the per-node check, unless no one can be hungry (one worker, no other
  // rank; detail::someoneMayBeHungry), where it would cost every node and never split.
  auto run = [&]<bool Answers>(std::bool_constant<Answers>) {
    struct Hooks {
      S& s;
      std::size_t perSplit;
      void afterNode(DepthFirst<M, K, Hooks>& dfs)
        requires Answers
      {
        if (s.bellRang()) [[unlikely]] return detail::answerRing(s, dfs.split(), perSplit, false);
        if (!s.hungry()) return;
        detail::splitIntoPool(s, dfs.split(), perSplit, false, true);  // for the idle worker: its own queue
      }
    };
    return detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts, std::forward<Launch>(launch),
                                        Answers, [perSplit](S& s, const detail::RunningTask<S>&) { return Hooks{s, perSplit}; });
  };
  if (detail::someoneMayBeHungry(opts, launch)) return run(std::true_type{});
  return run(std::false_type{});
}

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, const Options& opts = {}) {
  StopFlag stop;
  return search<M, K>(space, std::move(root), params, stop, opts);
}

}  // namespace jackdaw::stack_stealing
