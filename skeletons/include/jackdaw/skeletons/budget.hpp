// Budget skeleton: depth-first search until params.backtrackBudget (-b) backtracks are spent,
// then every unexplored sibling at the shallowest open level becomes a task and the count restarts.
//
//   jackdaw::ParallelOptions o; o.runtime.threads = 4;
//   auto r = jackdaw::budget::search<MyModel, jackdaw::Enumeration<jackdaw::CountNodes>>(space, root, params, o);
#pragma once

#include <cstdint>
#include <limits>

#include "jackdaw/skeletons/detail/depth_pool_search.hpp"

namespace jackdaw::budget {

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop,
                          const ParallelOptions& opts) {
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
  return detail::searchFromRoot<M, K>(space, std::move(root), params, stop, opts,
                                      [](S& s) { return Hooks{s, s.params().backtrackBudget}; });
}

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, const ParallelOptions& opts = {}) {
  StopFlag stop;
  return search<M, K>(space, std::move(root), params, stop, opts);
}

}  // namespace jackdaw::budget
