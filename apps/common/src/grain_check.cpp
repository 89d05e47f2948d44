#include "jackdaw/app/grain_check.hpp"

#include <algorithm>
#include <string>

#include <spdlog/logger.h>

#include "jackdaw/app/feature_states.hpp"
#include "jackdaw/distributed/launch.hpp"
#include "jackdaw/skeletons/detail/grain.hpp"
#include "jackdaw/skeletons/table.hpp"

namespace jackdaw::app {

void GrainCheck::add(const std::vector<WorkerReport>& mine, const distributed::Report& all) {
  // Rank 0 of several sees every rank's workers (its own among them); any other run, its own.
  int workers = 0;
  chosen_.clear();
  const auto take = [&](const std::vector<WorkerReport>& ws) {
    for (const auto& w : ws) {
      largest_ = std::max(largest_, w.largestTaskNodes);
      if (w.grain > 0) chosen_.push_back(w.grain);
      changes_ += w.grainChanges;
    }
    workers += static_cast<int>(ws.size());
  };
  if (all.ranks.empty()) take(mine);
  for (const auto& r : all.ranks) take(r.workers);
  workers_ = std::max(workers_, workers);
}

// What -d auto / -b auto chose: the workers' final settings and how often they changed them.
void GrainCheck::reportAutomatic(AppContext& ctx) const {
  const auto& o = ctx.opts;
  if (!(o.spawnDepthAuto || o.budgetAuto) || chosen_.empty()) return;
  std::vector<std::uint64_t> v = chosen_;
  std::sort(v.begin(), v.end());
  const bool depth = o.spawnDepthAuto;
  nlohmann::json a = {{"setting", depth ? "spawn_depth" : "budget"},
                      {"target_ms", o.taskTargetMs},
                      {"min", v.front()},
                      {"median", v[v.size() / 2]},
                      {"max", v.back()},
                      {"changes", changes_}};
  a["why"] = depth ? "the cutoff started at " + std::to_string(kAutoStartDepth) +
                         " and deepened each time a task had run past the target while workers were hungry "
                         "(the task split off its shallowest open level); values: the deepest cutoff each worker saw"
                   : "each worker retuned its budget at every split so that the work between two splits lasts the "
                     "target (at most 4x per split); values: the workers' final budgets in backtracks";
  ctx.features->grain.section["automatic"] = a;
  ctx.log->info("{} auto: {} (median {}, range {}..{}) after {} change(s), aiming at {} ms a slice",
                depth ? "spawn depth" : "budget", depth ? "deepest cutoff" : "final budget", v[v.size() / 2], v.front(),
                v.back(), changes_, o.taskTargetMs);
}

void GrainCheck::report(AppContext& ctx, std::uint64_t nodes) const {
  // Sequential runs have no tasks to compare; tiny searches are over before grain matters.
  constexpr std::uint64_t kWorthTelling = 1'000'000;
  if (ctx.rank != 0 || workers_ == 0 || nodes == 0) return;
  const double share = static_cast<double>(largest_) / static_cast<double>(nodes);
  ctx.features->grain.section = {{"largest_task_nodes", largest_}, {"nodes", nodes}, {"largest_task_share", share}, {"workers", workers_}};
  reportAutomatic(ctx);
  if (workers_ < 2 || largest_ == 0) return;
  // While the largest task ran (share × nodes at one worker's speed), the other workers had room for
  // (workers − 1) × that many nodes and visited at most the rest: an upper bound on how busy they were.
  const double othersBusy = std::min(1.0, (1.0 - share) / ((workers_ - 1) * share));
  ctx.features->grain.section["others_busy_at_most"] = othersBusy;
  if (othersBusy > 0.5 || nodes < kWorthTelling) return;
  const auto& o = ctx.opts;
  std::string advice;
  if (o.spawnDepthAuto || o.budgetAuto)
    advice = "the automatic grain splits a task only after --task-target-ms and while workers are hungry";
  else if (o.skeleton == skeletons::DepthBounded::name)
    advice = "tasks are cut only above --spawn-depth " + std::to_string(o.spawnDepth) +
             ": -d auto deepens the cutoff where a task runs long while workers are hungry, a larger -d cuts "
             "deeper everywhere";
  else if (o.skeleton == skeletons::Ordered::name)
    advice = "tasks are cut only above --spawn-depth " + std::to_string(o.spawnDepth) +
             ": a larger -d cuts deeper, and --skeleton budget or stack_stealing split work while it runs";
  else if (o.skeleton == skeletons::Budget::name)
    advice = "a task splits off work only after --budget " + std::to_string(o.budget) +
             " backtracks: a smaller -b splits sooner, -b auto picks it from measured time";
  else
    advice = "the other workers found little to take from it";
  ctx.log->warn("one task visited {:.0f}% of the nodes ({} of {}): while it ran, the other {} worker(s) were busy at most "
                "{:.0f}% of the time (at equal speed per node), so the run was mostly sequential; {}",
                100 * share, largest_, nodes, workers_ - 1, 100 * othersBusy, advice);
}

}  // namespace jackdaw::app
