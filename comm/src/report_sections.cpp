#include "jackdaw/comm/report_sections.hpp"

namespace jackdaw::comm {

namespace {
nlohmann::json workerJson(const WorkerLine& w) {
  return {{"worker", w.worker},   {"tasks", w.tasks},     {"nodes", w.nodes},         {"busy_us", w.busyUs},
          {"idle_us", w.idleUs}, {"work_rate", w.workRate}, {"largest_task_nodes", w.largestTaskNodes}};
}
}  // namespace

nlohmann::json distributedSection(const std::string& policy, const std::vector<RankLine>& ranks) {
  nlohmann::json perRank = nlohmann::json::array(), policyRanks = nlohmann::json::array();
  nlohmann::json commTotals = nlohmann::json::object(), policyTotals = nlohmann::json::object(),
                 extraTotals = nlohmann::json::object();
  std::uint64_t nodes = 0;
  double busyAll = 0, idleAll = 0;
  std::vector<const CommStats*> comms;
  for (const RankLine& r : ranks) {
    double busy = 0, idle = 0;
    nlohmann::json workers = nlohmann::json::array();
    for (const WorkerLine& w : r.workers) {
      busy += w.busyUs;
      idle += w.idleUs;
      workers.push_back(workerJson(w));
    }
    const CommStats& s = r.comm;
    const nlohmann::json c = toJson(s);
    nlohmann::json line = {{"rank", r.rank},
                           {"nodes", r.nodes},
                           {"busy_us", busy},
                           {"idle_us", idle},
                           {"workers", std::move(workers)},
                           {"steal_requests", s.stealRequestsSent},
                           {"steals_granted", s.stealsGranted},
                           {"steals_failed", s.stealsRefused},
                           {"comm", c}};
    line.update(r.extra);
    perRank.push_back(std::move(line));
    addCounters(commTotals, c);
    addCounters(policyTotals, r.policy);
    addCounters(extraTotals, r.extra);
    nlohmann::json p = r.policy;
    p["policy"] = policy;
    policyRanks.push_back(std::move(p));
    nodes += r.nodes;
    busyAll += busy;
    idleAll += idle;
    comms.push_back(&r.comm);
  }
  nlohmann::json totals = {{"nodes", nodes},
                           {"busy_us", busyAll},
                           {"idle_us", idleAll},
                           {"steal_requests", commTotals.value("steal_requests_sent", std::uint64_t{0})},
                           {"steals_granted", commTotals.value("steals_granted", std::uint64_t{0})},
                           {"steals_failed", commTotals.value("steals_refused", std::uint64_t{0})},
                           {"comm", commTotals}};
  totals.update(extraTotals);
  return {{"ranks", ranks.size()},
          {"herding", herding(comms)},
          {"board", boardSummary(comms)},
          {"policy_name", policy},
          {"per_rank", std::move(perRank)},
          {"totals", std::move(totals)},
          {"policy", {{"policy", policy}, {"ranks", std::move(policyRanks)}, {"totals", std::move(policyTotals)}}}};
}

void addStealOptions(nlohmann::json& options, const StealOptions& steal, const CommOptions& comm) {
  options["policy"] = steal.policy;
  options["seed"] = steal.seed;
  options["board"] = boardSchemeName(steal.board);
  options["board_sample"] = steal.boardSample;
  options["steal"] = stealName(comm.stealHalf);
  options["seed_tree"] = comm.seedArity;
  options["seed_redirect"] = comm.seedRedirect;
  options["steal_retry_max_us"] = comm.stealRetryMax.count();
  auto& constants = options["constants"];
  if (!constants.is_object()) constants = nlohmann::json::object();
  for (const auto& [flag, value] : steal.policyParams) constants[flag.starts_with("--") ? flag.substr(2) : flag] = value;
}

}  // namespace jackdaw::comm
