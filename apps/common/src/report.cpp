#include "jackdaw/app/report.hpp"

#include <fstream>

#include "jackdaw/core/errors.hpp"

namespace jackdaw::app {

nlohmann::json toJson(const SearchStats& s) {
  return {{"nodes", s.nodes}, {"prunes", s.prunes}, {"backtracks", s.backtracks}, {"max_depth", s.maxDepth}};
}

std::string toString(StopReason r) {
  switch (r) {
    case StopReason::None: return "complete";
    case StopReason::Found: return "found";
    case StopReason::Interrupted: return "interrupted";
    case StopReason::Failed: return "failed";
  }
  return "unknown";
}

nlohmann::json runJson(const AppContext& ctx, const SearchStats& stats, double seconds, StopReason stop) {
  const auto& o = ctx.opts;
  nlohmann::json j;
  j["options"] = {{"skeleton", o.skeleton}, {"threads", o.threads},     {"bind", o.bind}, {"policy", o.policy},
                  {"spawn_depth", o.spawnDepth}, {"budget", o.budget}, {"chunked", o.chunked},
                  {"discrepancy", o.discrepancy}, {"seed", o.seed}};
  // Every constant of the policies and of (3.1), by flag name, so a run can be replayed exactly.
  auto& constants = j["options"]["constants"] = nlohmann::json::object();
  for (const auto& [flag, value] : o.policyParams) constants[flag.substr(2)] = value;
  constants["rate-weight-new"] = o.workRate.weightNew;
  constants["rate-weight-old"] = o.workRate.weightOld;
  constants["rate-log-offset"] = o.workRate.logBase;
  j["command"] = ctx.argv;
  j["ranks"] = ctx.size;
  j["seconds"] = seconds;
  j["status"] = toString(stop);
  j["complete"] = (stop == StopReason::None || stop == StopReason::Found);
  j["stats"] = toJson(stats);
  j["nodes_per_second"] = seconds > 0 ? static_cast<double>(stats.nodes) / seconds : 0.0;
  if (!ctx.workers.empty()) {
    nlohmann::json ws = nlohmann::json::array();
    double rateSum = 0;
    for (const auto& w : ctx.workers) {
      ws.push_back({{"worker", w.worker},
                    {"tasks", w.tasks},
                    {"stats", toJson(w.stats)},
                    {"busy_us", w.busyUs},
                    {"idle_us", w.idleUs},
                    {"work_rate", w.workRate}});
      rateSum += w.workRate;
    }
    j["workers"] = std::move(ws);
    j["mean_work_rate"] = rateSum / static_cast<double>(ctx.workers.size());
  }
  if (!ctx.distributed.is_null()) j["distributed"] = ctx.distributed;
  return j;
}

void addWorkerReports(AppContext& ctx, const std::vector<WorkerReport>& reports) {
  if (ctx.workers.size() < reports.size()) ctx.workers.resize(reports.size());
  for (std::size_t i = 0; i < reports.size(); ++i) {
    WorkerReport& t = ctx.workers[i];
    const WorkerReport& r = reports[i];
    t.worker = r.worker;
    t.tasks += r.tasks;
    t.stats += r.stats;
    t.busyUs += r.busyUs;
    t.idleUs += r.idleUs;
    t.workRate = r.workRate;  // the latest rate: it already folds in the past (3.1)
  }
}

void writeStats(const AppContext& ctx, const nlohmann::json& doc) {
  if (ctx.opts.statsFile.empty() || ctx.rank != 0) return;
  std::ofstream out(ctx.opts.statsFile);
  if (!out) throw InputError("cannot write stats file '" + ctx.opts.statsFile + "'");
  out << doc.dump(2) << "\n";
  if (!out) throw InputError("error writing stats file '" + ctx.opts.statsFile + "'");
}

}  // namespace jackdaw::app
