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
  j["options"] = {{"skeleton", o.skeleton}, {"threads", o.threads},     {"policy", o.policy},
                  {"spawn_depth", o.spawnDepth}, {"budget", o.budget}, {"chunked", o.chunked},
                  {"discrepancy", o.discrepancy}, {"seed", o.seed}};
  j["seconds"] = seconds;
  j["status"] = toString(stop);
  j["complete"] = (stop == StopReason::None || stop == StopReason::Found);
  j["stats"] = toJson(stats);
  j["nodes_per_second"] = seconds > 0 ? static_cast<double>(stats.nodes) / seconds : 0.0;
  return j;
}

void writeStats(const AppContext& ctx, const nlohmann::json& doc) {
  if (ctx.opts.statsFile.empty()) return;
  std::ofstream out(ctx.opts.statsFile);
  if (!out) throw InputError("cannot write stats file '" + ctx.opts.statsFile + "'");
  out << doc.dump(2) << "\n";
  if (!out) throw InputError("error writing stats file '" + ctx.opts.statsFile + "'");
}

}  // namespace jackdaw::app
