#include "jackdaw/app/report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "jackdaw/app/feature_states.hpp"
#include "jackdaw/app/safe_file.hpp"
#include "jackdaw/comm/report_sections.hpp"

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

// How old the process was at steady time t, from its start time in /proc/self/stat (clock ticks
// since boot) and CLOCK_BOOTTIME; -1 where that cannot be read.
static double processAgeAt(std::chrono::steady_clock::time_point t) {
  std::ifstream in("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');  // the command name may hold spaces; fields follow it
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 2));
  std::string f;
  unsigned long long startTicks = 0;
  for (int i = 3; i <= 22 && fields >> f; ++i)
    if (i == 22) startTicks = std::stoull(f);
  timespec boot{};
  if (startTicks == 0 || clock_gettime(CLOCK_BOOTTIME, &boot) != 0) return -1;
  const double ageNow = static_cast<double>(boot.tv_sec) + boot.tv_nsec * 1e-9 -
                        static_cast<double>(startTicks) / static_cast<double>(sysconf(_SC_CLK_TCK));
  return ageNow - std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Where the time before the first search went, in seconds: from exec to runMain (from the
// kernel's start time of the process, in clock ticks: about 10 ms resolution), MPI_Init (0 where
// it was not needed), the command line, and from then to the search (the app reading its input,
// building its Space).
static nlohmann::json startupJson(const AppContext& ctx) {
  using Clock = AppContext::Startup::Clock;
  const auto& s = ctx.startup;
  const auto secs = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  nlohmann::json j;
  j["exec_to_main_s"] = processAgeAt(s.main);
  j["mpi_init_s"] = s.mpiSeconds;  // 0: one rank without a launcher, MPI not needed
  j["options_s"] = secs(s.main, s.options) - s.mpiSeconds;
  if (s.searched) j["input_s"] = secs(s.options, s.search);
  return j;
}

nlohmann::json runJson(const AppContext& ctx, const SearchStats& stats, double seconds, StopReason stop) {
  const auto& o = ctx.opts;
  nlohmann::json j;
  j["options"] = {{"skeleton", o.skeleton}, {"threads", o.threads}, {"bind", o.bind},
                  {"spawn_depth", o.spawnDepthAuto ? nlohmann::json("auto") : nlohmann::json(o.spawnDepth)},
                  {"budget", o.budgetAuto ? nlohmann::json("auto") : nlohmann::json(o.budget)},
                  {"task_target_ms", o.taskTargetMs}, {"chunked", o.chunked}, {"discrepancy", o.discrepancy},
                  {"watchdog_s", o.comm.watchdogSeconds}};
  // The skeleton that ran; "auto" only if no search settled it (skeletons/auto.hpp).
  j["options"]["skeleton_auto"] = o.skeletonAuto;
  // Every constant of the policies and of (3.1), by flag name, so a run can be replayed exactly.
  comm::addStealOptions(j["options"], o.steal, o.comm);
  auto& constants = j["options"]["constants"];
  constants["rate-weight-new"] = o.workRate.weightNew;
  constants["rate-weight-old"] = o.workRate.weightOld;
  constants["rate-log-offset"] = o.workRate.logBase;
  j["command"] = ctx.argv;
  j["ranks"] = ctx.size;
  j["startup"] = startupJson(ctx);
  j["seconds"] = seconds;
  j["status"] = toString(stop);
  j["complete"] = (stop == StopReason::None || stop == StopReason::Found);
  j["stats"] = toJson(stats);
  j["nodes_per_second"] = seconds > 0 ? static_cast<double>(stats.nodes) / seconds : 0.0;
  const StatsState& state = ctx.features->stats;
  if (!state.workers.empty()) {
    nlohmann::json ws = nlohmann::json::array();
    double rateSum = 0;
    for (const auto& w : state.workers) {
      ws.push_back({{"worker", w.worker},
                    {"tasks", w.tasks},
                    {"stats", toJson(w.stats)},
                    {"busy_us", w.busyUs},
                    {"idle_us", w.idleUs},
                    {"work_rate", w.workRate},
                    {"largest_task_nodes", w.largestTaskNodes}});
      rateSum += w.workRate;
    }
    j["workers"] = std::move(ws);
    j["mean_work_rate"] = rateSum / static_cast<double>(state.workers.size());
  }
  if (!state.distributed.is_null()) j["distributed"] = state.distributed;
  const nlohmann::json& checkpoint = ctx.features->checkpoint.section;
  if (!checkpoint.is_null()) j["checkpoint"] = checkpoint;
  const nlohmann::json& grain = ctx.features->grain.section;
  if (!grain.is_null()) j["grain"] = grain;
  return j;
}

nlohmann::json distributedJson(const distributed::Report& report) {
  std::vector<comm::RankLine> ranks;
  for (const auto& r : report.ranks) {
    comm::RankLine& line = ranks.emplace_back();
    line.rank = r.rank;
    line.nodes = r.stats.nodes;
    line.comm = r.comm;
    line.policy = r.policy;
    for (const auto& w : r.workers)
      line.workers.push_back({static_cast<std::uint64_t>(w.worker), w.tasks, w.stats.nodes, w.largestTaskNodes, w.busyUs,
                              w.idleUs, w.workRate});
  }
  nlohmann::json j = comm::distributedSection(report.policy, ranks);
  j["setup_seconds"] = report.setupSeconds;
  return j;
}

void addWorkerReports(AppContext& ctx, const std::vector<WorkerReport>& reports) {
  std::vector<WorkerReport>& workers = ctx.features->stats.workers;
  if (workers.size() < reports.size()) workers.resize(reports.size());
  for (std::size_t i = 0; i < reports.size(); ++i) {
    WorkerReport& t = workers[i];
    const WorkerReport& r = reports[i];
    t.worker = r.worker;
    t.tasks += r.tasks;
    t.stats += r.stats;
    t.busyUs += r.busyUs;
    t.idleUs += r.idleUs;
    t.workRate = r.workRate;  // the latest rate: it already folds in the past (3.1)
    t.largestTaskNodes = std::max(t.largestTaskNodes, r.largestTaskNodes);
  }
}

std::string utcTimestamp() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

void print(const AppContext& ctx, const std::string& text) {
  if (ctx.rank != 0) return;
  errno = 0;
  std::cout << text << std::flush;
  if (!std::cout && ctx.stdoutErrno == 0) ctx.stdoutErrno = errno != 0 ? errno : EIO;
}

void writeStats(const AppContext& ctx, const nlohmann::json& doc) {
  ctx.features->stats.written = true;
  if (ctx.opts.statsFile.empty() || ctx.rank != 0) return;
  OutputFile out("--stats", ctx.opts.statsFile);
  out.stream() << doc.dump(2) << "\n";
  if (const auto error = out.commit()) ctx.undelivered.push_back(*error);
}

}  // namespace jackdaw::app
