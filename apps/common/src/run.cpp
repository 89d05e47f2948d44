#include "jackdaw/app/run.hpp"

#include "jackdaw/comm/failure.hpp"

namespace jackdaw::app {

void checkSetupAcrossRanks(AppContext& ctx) {
  std::optional<std::string> error;
  if (ctx.opts.testFailRank == ctx.rank)
    error = "rank " + std::to_string(ctx.rank) + " cannot read its input (simulated by --test-fail-rank)";
  if (ctx.size == 1) {
    if (error) throw InputError(*error);
    ctx.setupChecked = true;
    return;
  }
  if (ctx.setupChecked) return;
  const bool ok = comm::collectiveCheck(ctx.world, error);
  ctx.setupChecked = true;
  if (!ok) throw SetupFailedElsewhere();
}

skeletons::Settings skeletonSettings(AppContext& ctx, std::vector<WorkerReport>* reports,
                                     std::vector<SearchObserver*> observers) {
  const auto& o = ctx.opts;
  skeletons::Settings s;
  s.parallel.runtime.threads = o.threads;
  s.parallel.runtime.bind = o.bind;
  s.parallel.runtime.rate = o.workRate;
  s.parallel.workers = reports;
  s.parallel.live = &ctx.live;
  s.parallel.observers = std::move(observers);
  s.spawnDepth = o.spawnDepth;
  s.budget = o.budget;
  s.chunked = o.chunked;
  s.discrepancy = o.discrepancy;
  return s;
}

comm::SessionConfig sessionConfig(const AppContext& ctx) {
  comm::SessionConfig c;
  c.world = ctx.world;
  c.policy = ctx.opts.policy;
  c.policyParams = ctx.opts.policyParams;
  c.policies = ctx.policies;
  c.seed = ctx.opts.seed;
  c.comm.stealHalf = ctx.opts.chunked;
  c.comm.seed = ctx.opts.seed;
  c.comm.testDelayMaxUs = ctx.opts.testCommDelayUs;
  c.comm.watchdogSeconds = ctx.opts.watchdogSeconds;
  return c;
}

std::unique_ptr<SlowRank> slowRankFor(const AppContext& ctx) {
  for (int r : parseRankList(ctx.opts.slowRanks, ctx.size))
    if (r == ctx.rank) return std::make_unique<SlowRank>(ctx.opts.slowdown, ctx.stop);
  return nullptr;
}

}  // namespace jackdaw::app
