// Runs a search with the skeleton the command line chose, on every rank of the job. Apps call
// this instead of a skeleton, so every app gets every skeleton and every rank layout unchanged.
//
// The skeleton settings (-d, -b, --threads, --bind, --chunked, --discrepancy) and the distributed
// session (--policy and its constants, --seed) come from ctx.opts; per-worker statistics are
// added to ctx.workers and the per-rank report to ctx.distributed for --stats; --progress lines
// are logged while it runs.
#pragma once

#include <memory>
#include <stdexcept>
#include <vector>

#include "jackdaw/app/main.hpp"
#include "jackdaw/app/progress.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/slow_rank.hpp"
#include "jackdaw/comm/session.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/result.hpp"
#include "jackdaw/distributed/launch.hpp"
#include "jackdaw/skeletons/table.hpp"

namespace jackdaw::app {

// Thrown on the ranks whose own set-up was fine when another rank's failed (rank 0 has printed
// that rank's message); runMain turns it into exit code 2.
struct SetupFailedElsewhere : std::runtime_error {
  SetupFailedElsewhere() : std::runtime_error("set-up failed on another rank") {}
};

// Every rank reaches this point after reading its input, or fails before it and joins the same
// collective check from runMain: one message, every rank exits non-zero, nobody hangs.
void checkSetupAcrossRanks(AppContext& ctx);

// What the command line says about the skeleton (reports, live counters and observers included).
skeletons::Settings skeletonSettings(AppContext& ctx, std::vector<WorkerReport>* reports,
                                     std::vector<SearchObserver*> observers);
// What the command line says about the session between ranks.
comm::SessionConfig sessionConfig(const AppContext& ctx);
// This rank's slow-down observer if --slow-ranks lists it, else null.
std::unique_ptr<SlowRank> slowRankFor(const AppContext& ctx);

template <SearchModel M, SearchKind K>
SearchResult<M, K> runSearch(AppContext& ctx, const typename M::Space& space, typename M::Node root,
                             const typename SearchTypes<M, K>::Params& params) {
  const auto& o = ctx.opts;
  if (ctx.size > 1 && !skeletons::isParallel(o.skeleton))
    throw InputError("--skeleton " + o.skeleton + " runs on one rank; with " + std::to_string(ctx.size) +
                     " ranks choose a parallel skeleton");
  checkSetupAcrossRanks(ctx);
  ProgressLog progress(ctx);
  std::vector<WorkerReport> reports;
  const auto slow = slowRankFor(ctx);
  std::vector<SearchObserver*> observers;
  if (slow) observers.push_back(slow.get());
  const skeletons::Settings settings = skeletonSettings(ctx, &reports, observers);
  // One launch for every layout: on one rank it runs the search here, on several it spans them.
  distributed::Report report;
  const distributed::Launch launch(sessionConfig(ctx), &report);
  auto r = skeletons::run<M, K>(o.skeleton, space, std::move(root), params, ctx.stop, settings, launch);
  if (!reports.empty()) addWorkerReports(ctx, reports);
  if (ctx.size > 1 && ctx.rank == 0) ctx.distributed = distributedJson(report, ctx.size);
  return r;
}

}  // namespace jackdaw::app
