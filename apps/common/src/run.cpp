#include "jackdaw/app/run.hpp"

#include "jackdaw/comm/failure.hpp"
#include "jackdaw/comm/policies/params.hpp"

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

DistributedOptions distributedOptions(AppContext& ctx) {
  DistributedOptions d;
  d.world = ctx.world;
  d.rank = ctx.rank;
  d.size = ctx.size;
  d.policy = ctx.opts.policy;
  for (const auto& p : comm::policyParamTable()) {
    const auto it = ctx.opts.policyParams.find(p.flag);  // absent when no CLI filled the options
    p.set(d.policyContext, it != ctx.opts.policyParams.end() ? it->second : p.defaultValue);
  }
  d.policyContext.seed = ctx.opts.seed;
  d.comm.stealHalf = ctx.opts.chunked;
  d.comm.seed = ctx.opts.seed;
  d.comm.testDelayMaxUs = ctx.opts.testCommDelayUs;
  d.report = &ctx.distributed;
  return d;
}

}  // namespace jackdaw::app
