// Runs a search with the skeleton the command line chose. Apps call this instead of a skeleton,
// so every app gets every skeleton (and later every rank layout) without change.
//
// The skeleton options (-d, -b, --threads, --bind, --chunked, --discrepancy) come from ctx.opts;
// per-worker statistics of parallel skeletons are added to ctx.workers for the --stats JSON;
// --progress lines are logged while it runs.
#pragma once

#include <stdexcept>
#include <vector>

#include "jackdaw/app/main.hpp"
#include "jackdaw/app/progress.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/result.hpp"
#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "jackdaw/skeletons/ordered.hpp"
#include "jackdaw/skeletons/seq.hpp"
#include "jackdaw/skeletons/stack_stealing.hpp"

namespace jackdaw::app {

// Thrown on the ranks whose own set-up was fine when another rank's failed (rank 0 has printed
// that rank's message); runMain turns it into exit code 2.
struct SetupFailedElsewhere : std::runtime_error {
  SetupFailedElsewhere() : std::runtime_error("set-up failed on another rank") {}
};

// Every rank reaches this point after reading its input, or fails before it and joins the same
// collective check from runMain: one message, every rank exits non-zero, nobody hangs.
void checkSetupAcrossRanks(AppContext& ctx);

// The distributed options of this rank from the command line.
DistributedOptions distributedOptions(AppContext& ctx);

template <SearchModel M, SearchKind K>
SearchResult<M, K> runSearch(AppContext& ctx, const typename M::Space& space, typename M::Node root,
                             const typename SearchTypes<M, K>::Params& given) {
  const auto& o = ctx.opts;
  if (ctx.size > 1 && o.skeleton == "seq")
    throw InputError("--skeleton seq runs on one rank; with " + std::to_string(ctx.size) +
                     " ranks choose depth_bounded, budget, stack_stealing or ordered");
  checkSetupAcrossRanks(ctx);
  auto params = given;
  params.spawnDepth = o.spawnDepth;
  params.backtrackBudget = o.budget;
  ProgressLog progress(ctx);
  if (o.skeleton == "seq") return seq::search<M, K>(space, std::move(root), params, ctx.stop, &ctx.live);

  std::vector<WorkerReport> reports;
  const DistributedOptions dist = distributedOptions(ctx);
  ParallelOptions po;
  po.runtime.threads = o.threads;
  po.runtime.bind = o.bind;
  po.runtime.rate = o.workRate;
  po.chunked = o.chunked;
  po.discrepancy = o.discrepancy;
  po.workers = &reports;
  po.distributed = &dist;
  po.live = &ctx.live;
  for (int r : parseRankList(o.slowRanks, ctx.size))
    if (r == ctx.rank) po.slowdown = o.slowdown;
  SearchResult<M, K> r;
  if (o.skeleton == "depth_bounded") r = depth_bounded::search<M, K>(space, std::move(root), params, ctx.stop, po);
  else if (o.skeleton == "budget") r = budget::search<M, K>(space, std::move(root), params, ctx.stop, po);
  else if (o.skeleton == "stack_stealing") r = stack_stealing::search<M, K>(space, std::move(root), params, ctx.stop, po);
  else if (o.skeleton == "ordered") r = ordered::search<M, K>(space, std::move(root), params, ctx.stop, po);
  else throw std::logic_error("skeleton " + o.skeleton + " passed validation but is not wired");
  addWorkerReports(ctx, reports);
  return r;
}

}  // namespace jackdaw::app
