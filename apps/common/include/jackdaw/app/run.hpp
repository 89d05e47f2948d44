// Runs a search with the skeleton the command line chose. Apps call this instead of a skeleton,
// so every app gets every skeleton (and later every rank layout) without change.
//
// The skeleton options (-d, -b, --threads, --bind, --chunked, --discrepancy) come from ctx.opts;
// per-worker statistics of parallel skeletons are added to ctx.workers for the --stats JSON.
#pragma once

#include <stdexcept>
#include <vector>

#include "jackdaw/app/main.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/core/result.hpp"
#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "jackdaw/skeletons/ordered.hpp"
#include "jackdaw/skeletons/seq.hpp"
#include "jackdaw/skeletons/stack_stealing.hpp"

namespace jackdaw::app {

template <SearchModel M, SearchKind K>
SearchResult<M, K> runSearch(AppContext& ctx, const typename M::Space& space, typename M::Node root,
                             const typename SearchTypes<M, K>::Params& given) {
  const auto& o = ctx.opts;
  auto params = given;
  params.spawnDepth = o.spawnDepth;
  params.backtrackBudget = o.budget;
  if (o.skeleton == "seq") return seq::search<M, K>(space, std::move(root), params);

  std::vector<WorkerReport> reports;
  ParallelOptions po;
  po.runtime.threads = o.threads;
  po.runtime.bind = o.bind;
  po.chunked = o.chunked;
  po.discrepancy = o.discrepancy;
  po.workers = &reports;
  SearchResult<M, K> r;
  if (o.skeleton == "depth_bounded") r = depth_bounded::search<M, K>(space, std::move(root), params, po);
  else if (o.skeleton == "budget") r = budget::search<M, K>(space, std::move(root), params, po);
  else if (o.skeleton == "stack_stealing") r = stack_stealing::search<M, K>(space, std::move(root), params, po);
  else if (o.skeleton == "ordered") r = ordered::search<M, K>(space, std::move(root), params, po);
  else throw std::logic_error("skeleton " + o.skeleton + " passed validation but is not wired");
  addWorkerReports(ctx, reports);
  return r;
}

}  // namespace jackdaw::app
