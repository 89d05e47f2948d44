// Budget skeleton: depth-first search until `budget` (-b) backtracks are spent, then every
// unexplored sibling at the shallowest open level becomes a task and the count restarts.
//
//   jackdaw::budget::Options o;  o.runtime.threads = 4;  o.budget = 10000;
//   auto r = jackdaw::budget::search<MyModel, jackdaw::Enumeration<jackdaw::CountNodes>>(space, root, params, o);
#pragma once

#include <cstdint>
#include <limits>

#include "jackdaw/skeletons/detail/depth_pool_search.hpp"

namespace jackdaw::budget {

struct Options : ParallelOptions {
  std::uint64_t budget = 100000;  // backtracks before unexplored siblings are split off
};

template <SearchModel M, SearchKind K, class Launch = detail::LocalLaunch>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop, const Options& opts,
                          Launch&& launch = {}) {
  using S = detail::DepthPoolSearch<M, K>;
  struct Hooks {
    S& s;
    std::uint64_t budget;
    std::uint64_t spent = 0;
    void afterBacktrack(DepthFirst<M, K, Hooks>& dfs) {
      if (++spent < budget) return;
      spent = 0;
      dfs.splitShallowest(std::numeric_limits<std::size_t>::max(),
                          [this](typename M::Node&& c, int d) { s.push({std::move(c), d}); });
    }
  };
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
