#include <algorithm>
#include <string>
#include <vector>

#include "jackdaw/comm/report_sections.hpp"
#include "running.hpp"

namespace jackdaw::sim::detail {

namespace {
const char* splitChunkName(SimConfig::SplitChunk c) {
  switch (c) {
    case SimConfig::SplitChunk::Level: return "level";
    case SimConfig::SplitChunk::Rule: return "rule";
    case SimConfig::SplitChunk::One: break;
  }
  return "one";
}
}  // namespace

nlohmann::json report(Running& run) {
  Job& job = *run.job;
  for (auto& c : run.comms) c->finish();
  const double seconds = job.endTime - job.startTime;
  std::vector<comm::RankLine> lines;
  for (auto& rp : job.ranks) {
    Rank& r = *rp;
    comm::RankLine& line = lines.emplace_back();
    for (std::size_t w = 0; w < r.accounts.size(); ++w) {
      r.accounts[w].finish(job.lastTaskEnd * 1e6);
      line.workers.push_back({w, r.workerTasks[w], r.workerNodes[w], r.workerLargest[w], r.accounts[w].workTotal(),
                              r.accounts[w].idleTotal(), r.accounts[w].workRate()});
    }
    r.stats.commWallSeconds = seconds;
    line.rank = r.id;
    line.nodes = r.nodes;
    line.comm = r.stats;
    line.policy = r.policy->stats();
    line.extra = {{"host", r.host->get_name()}, {"board_messages", r.boardMessages}, {"board_bytes", r.boardBytes}};
  }
  const auto& cfg = job.cfg;
  // What grows with P: ramp-up (the last rank to get its first task) and the board's share of a
  // host link (its busiest rank's board bytes over the run against the link's bandwidth).
  std::vector<double> firsts;
  double boardShare = 0;
  for (auto& r : job.ranks) {
    firsts.push_back(r->firstTaskAt < 0 ? seconds : r->firstTaskAt - job.startTime);
    if (seconds > 0)
      boardShare = std::max(boardShare, static_cast<double>(r->boardBytes) * 8 / seconds / (cfg.platform.linkGbps * 1e9));
  }
  std::sort(firsts.begin(), firsts.end());
  std::uint64_t tasksRun = 0, pruned = 0, publishes = 0, yields = 0, splits = 0, splitTasks = 0;
  std::vector<std::uint64_t> startedIn(job.trees.size(), 0), nodesIn(job.trees.size(), 0);
  // Per tree: the first time any rank found it, and per rank when it found it and first ran in it.
  std::vector<double> firstFound(job.trees.size(), -1.0);
  nlohmann::json rankTimes = nlohmann::json::array();
  for (auto& r : job.ranks) {
    tasksRun += r->finished;
    pruned += r->pruned;
    if (r->split) splits += r->split->splits(), splitTasks += r->split->splitTasks();
    for (std::size_t i = 0; i < job.trees.size(); ++i) {
      startedIn[i] += r->startedIn[i];
      nodesIn[i] += r->nodesIn[i];
      if (r->foundAt[i] >= 0 && (firstFound[i] < 0 || r->foundAt[i] < firstFound[i])) firstFound[i] = r->foundAt[i];
    }
    rankTimes.push_back({{"found_s", r->foundAt}, {"ran_s", r->ranAt}});
  }
  for (auto& c : run.comms) publishes += c->boundPublishes(), yields += c->yields();
  nlohmann::json bounds = nlohmann::json::array();
  for (const auto& tr : job.trees) bounds.push_back(tr.bound);
  nlohmann::json out;
  out["app"] = job.trace->header.value("app", std::string("trace"));
  out["simulated"] = true;
  out["ranks"] = cfg.ranks;
  out["seconds"] = seconds;
  out["status"] = "complete";
  out["complete"] = job.done && job.outstanding == 0;
  out["distributed"] = comm::distributedSection(cfg.steal.policy, lines);
  out["stats"] = {{"nodes", out["distributed"]["totals"]["nodes"]}, {"tasks", tasksRun}};
  out["options"] = {{"threads", cfg.workers}};
  comm::addStealOptions(out["options"], cfg.steal, cfg.comm);
  const auto& p = cfg.platform;
  out["simulation"] = {{"platform",
                        {{"name", p.name},
                         {"hosts", p.hosts},
                         {"cores", p.cores},
                         {"core_speed", p.coreSpeed},
                         {"link_latency_us", p.linkLatencyUs},
                         {"link_gbps", p.linkGbps},
                         {"loopback_latency_us", p.loopbackLatencyUs},
                         {"slow_hosts", p.slowHosts},
                         {"slow_factor", p.slowFactor},
                         {"yield_slice_us", p.yieldSliceUs},
                         {"wake_cpu_us", p.wakeCpuUs},
                         {"wake_late_us", p.wakeLateUs}}},
                       {"workers_per_rank", cfg.workers},
                       {"comm_cost_us", cfg.commCostUs},
                       {"board_transport", cfg.boardMessages ? "messages" : "rma"},
                       {"doorbell", cfg.comm.doorbell},
                       {"task_jitter", cfg.taskJitter},
                       {"task_cpu_scale", cfg.taskCpuScale},
                       {"slow_ranks", cfg.slowRanks},
                       {"slow_rank_factor", cfg.slowRanks.empty() ? 1.0 : cfg.slowRankFactor},
                       {"comm_yields", yields},
                       {"last_task_end_s", job.lastTaskEnd - job.startTime},
                       {"ramp_up_s", {{"median", firsts[firsts.size() / 2]}, {"last", firsts.back()}}},
                       {"board_link_share_max", boardShare},
                       {"termination_s", job.endTime - job.lastTaskEnd},
                       {"utilisation", job.busy.report(static_cast<double>(cfg.ranks) * cfg.workers, job.lastTaskEnd - job.startTime)},
                       {"trace_nodes", job.trace->totalNodes()},
                       {"trace_tasks", job.trace->tasks.size()},
                       {"incumbent",
                        {{"replayed", job.trees.size() > 1},
                         {"tree_bounds", bounds},
                         {"tasks_started_per_tree", startedIn},
                         {"nodes_per_tree", nodesIn},
                         {"first_found_s", firstFound},
                         {"per_rank", rankTimes},
                         {"tasks_pruned", pruned},
                         {"bound_publishes", publishes}}},
                       {"split",
                        {{"mode", cfg.splitOnHunger ? "hunger" : "tree"},
                         {"check_nodes", cfg.splitCheckNodes},
                         {"cost_ns", cfg.splitCostNs},
                         {"chunk", splitChunkName(cfg.splitChunk)},
                         {"remote", cfg.splitDirect ? "direct" : "pool"},
                         {"splits", splits},
                         {"split_tasks", splitTasks}}},
                       {"trace_cpu_s", 1e-9 * static_cast<double>(job.trace->totalCpuNs())}};
  return out;
}

}  // namespace jackdaw::sim::detail
