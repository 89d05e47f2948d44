// Runs a search with the skeleton the command line chose. Apps call this instead of a skeleton,
// so every app gets every skeleton (and later every rank layout) without change.
#pragma once

#include <stdexcept>

#include "jackdaw/app/main.hpp"
#include "jackdaw/core/result.hpp"
#include "jackdaw/skeletons/seq.hpp"

namespace jackdaw::app {

template <SearchModel M, SearchKind K>
SearchResult<M, K> runSearch(AppContext& ctx, const typename M::Space& space, typename M::Node root,
                             const typename SearchTypes<M, K>::Params& params) {
  if (ctx.opts.skeleton == "seq") return seq::search<M, K>(space, std::move(root), params);
  throw std::logic_error("skeleton " + ctx.opts.skeleton + " passed validation but is not wired");
}

}  // namespace jackdaw::app
