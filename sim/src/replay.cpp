#include "jackdaw/sim/replay.hpp"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "board_view.hpp"
#include "jackdaw/core/memory_budget.hpp"
#include "running.hpp"
#include "workers.hpp"

namespace sg4 = simgrid::s4u;

namespace jackdaw::sim::detail {

Running start(const SimConfig& cfg, const trace::Trace& t, HostLoad& load) {
  if (cfg.ranks < 1 || cfg.workers < 1) throw std::invalid_argument("need at least one rank and one worker per rank");
  if (t.tasks.empty()) throw std::invalid_argument("the trace holds no task");
  Running run;
  run.job = std::make_unique<Job>();
  Job& job = *run.job;
  job.cfg = cfg;
  job.trace = &t;
  // The trees: the trace's own, then (replaying the incumbent) each level, weaker each.
  const auto addTree = [&](double bound, const std::vector<trace::TaskRecord>& tasks, const std::vector<std::uint64_t>* stronger,
                           const std::vector<trace::Improvement>* improvements) {
    Tree tr;
    tr.bound = bound;
    tr.tasks = &tasks;
    tr.stronger = stronger;
    tr.children = trace::childrenOf(tasks);
    if (improvements && !improvements->empty()) {
      tr.improvements = *improvements;
      std::stable_sort(tr.improvements.begin(), tr.improvements.end(), [](const trace::Improvement& a, const trace::Improvement& b) {
        return a.task != b.task ? a.task < b.task : a.afterNodes < b.afterNodes;
      });
      tr.firstImprovement.assign(tasks.size() + 1, 0);
      for (const auto& i : tr.improvements) ++tr.firstImprovement[i.task + 1];
      for (std::size_t k = 1; k < tr.firstImprovement.size(); ++k) tr.firstImprovement[k] += tr.firstImprovement[k - 1];
    }
    job.trees.push_back(std::move(tr));
  };
  job.maximise = t.header.value("sense", std::string("maximise")) != "minimise";
  const auto initial = t.header.find("initial_bound");
  addTree(initial != t.header.end() && initial->is_number() ? initial->get<double>() : 0.0, t.tasks, nullptr, nullptr);
  if (cfg.replayIncumbent)
    for (const auto& l : t.levels) addTree(l.bound, l.tasks, &l.stronger, &l.improvements);
  const auto hosts = sg4::Engine::get_instance()->get_all_hosts();
  const auto& registry = cfg.policies ? *cfg.policies : comm::PolicyRegistry::builtin();
  for (int i = 0; i < cfg.ranks; ++i) {
    auto r = std::make_unique<Rank>();
    r->id = i;
    r->host = hosts[static_cast<std::size_t>(i) % hosts.size()];
    if (std::find(cfg.slowRanks.begin(), cfg.slowRanks.end(), i) != cfg.slowRanks.end()) r->spin = cfg.slowRankFactor - 1.0;
    r->box = sg4::Mailbox::by_name(cfg.label + "-rank-" + std::to_string(i));
    r->mutex = sg4::Mutex::create();
    r->workAvailable = sg4::ConditionVariable::create();
    r->commWake = sg4::ConditionVariable::create();
    r->idle = cfg.workers;
    for (int w = 0; w < cfg.workers; ++w) r->accounts.emplace_back(0.0);
    r->workerTasks.assign(static_cast<std::size_t>(cfg.workers), 0);
    r->workerNodes.assign(static_cast<std::size_t>(cfg.workers), 0);
    r->workerLargest.assign(static_cast<std::size_t>(cfg.workers), 0);
    r->tree = r->ownTree = static_cast<int>(job.trees.size()) - 1;  // no incumbent yet: the weakest tree
    r->startedIn.assign(job.trees.size(), 0);
    r->nodesIn.assign(job.trees.size(), 0);
    r->foundAt.assign(job.trees.size(), -1.0);
    r->ranAt.assign(job.trees.size(), -1.0);
    r->jitter.seed(cfg.steal.seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(i));
    if (cfg.splitOnHunger) {
      r->split = std::make_unique<PrivateStacks>(cfg.workers);
      r->splitWake = sg4::ConditionVariable::create();
    }
    job.ranks.push_back(std::move(r));
  }
  std::map<const sg4::Host*, int> ranksOn;
  for (auto& r : job.ranks) ++ranksOn[r->host];
  for (auto& r : job.ranks) {
    r->hostRunning = &load[r->host];  // a std::map's entries stay where they are
    r->mpiYields = cfg.platform.yieldSliceUs > 0 && ranksOn[r->host] > r->host->get_core_count();
  }
  job.board = std::make_unique<Board>(cfg.ranks, job.farS(kRecordBytes));
  for (auto& r : job.ranks) {
    r->view = std::make_unique<SimBoardView>(job, *r);
    comm::PolicyEnv env{r->id, cfg.ranks, cfg.workers, cfg.steal.seed, r->view.get()};
    r->policy = registry.make(cfg.steal.policy, env, cfg.steal.policyParams);
  }
  // The seed: the tasks pushed before any task ran start on rank 0, as the root does (in the
  // weakest tree: no rank has an incumbent yet).
  const int weakest = static_cast<int>(job.trees.size()) - 1;
  const auto& seedTree = job.trees.back();
  for (std::uint64_t id = 0; id < seedTree.tasks->size(); ++id)
    if (seedTree.task(id).parent == trace::kNoParent) {
      job.ranks[0]->pool.push({pack(weakest, id), static_cast<int>(seedTree.task(id).depth)});
      ++job.outstanding, ++job.ranks[0]->created;
    }
  job.startTime = nowS();
  for (auto& rp : job.ranks) {
    Rank& r = *rp;
    for (int w = 0; w < cfg.workers; ++w)
      sg4::Actor::create(cfg.label + "-w" + std::to_string(r.id) + "." + std::to_string(w), r.host,
                         [&job, &r, w] { worker(job, r, w); });
    sg4::Actor::create(cfg.label + "-rx" + std::to_string(r.id), r.host, [&job, &r] { receiver(job, r); })->daemonize();
    if (r.split)
      sg4::Actor::create(cfg.label + "-split" + std::to_string(r.id), r.host, [&job, &r] { splitter(job, r); })->daemonize();
    auto c = std::make_unique<CommActor>(job, r);
    c->sizePeers();
    CommActor* cp = c.get();
    run.comms.push_back(std::move(c));
    sg4::Actor::create(cfg.label + "-comm" + std::to_string(r.id), r.host, [cp] { cp->run(); });
  }
  return run;
}

}  // namespace jackdaw::sim::detail

namespace jackdaw::sim {

using detail::HostLoad;
using detail::Running;
using detail::report;
using detail::start;

SimOutcome simulate(sg4::Engine& engine, const SimConfig& cfg, const trace::Trace& trace, const SimConfig* corunCfg,
                    const trace::Trace* corunTrace) {
  HostLoad load;
  Running main = start(cfg, trace, load);
  Running other;
  if (corunCfg && corunTrace) other = start(*corunCfg, *corunTrace, load);
  engine.run();
  SimOutcome out;
  out.job = report(main);
  if (other.job) out.corun = report(other);
  return out;
}

// Weights measured as jackdaw-sim's max RSS (SimGrid 3.32, x86-64, 128 KiB actor stacks) while
// varying one count at a time, rounded up:
//   the process, SimGrid loaded: 35 MB                                       -> 40 MiB
//   a host (its CPU, link, loopback and routes): 3.4 KB (100,000 hosts: 373 MB) -> 4 KiB
//   an actor (its stack's touched pages and context): 29 KB (100 ranks x 64 workers: 226 MB) -> 32 KiB
//   a pair of ranks (per-peer stats and scores, the board's messages in flight, the report's
//     per-peer JSON and its text): 90-220 B (3,000 ranks: 1.5-2.1 GB)         -> 256 B
//   a task of any tree (its record, child lists, pool entry): 75 B (2^20 tasks: 110 MB) -> 128 B
// Cores per host cost nothing (10,000 hosts of 16 or 4,096 cores: 68 MB either way), and the
// tasks do not multiply with the ranks (a task is in one rank's pool at a time). The run's
// events (steal and board messages in flight) are not counted apart: at the sizes measured they
// are inside the pairs' weight. The estimate came out 1.2-1.9 times the measured max RSS.
std::uint64_t memoryEstimate(const SimConfig& cfg, const trace::Trace& trace, const SimConfig* corunCfg,
                             const trace::Trace* corunTrace) {
  constexpr std::uint64_t kProcess = 40ull << 20, kHost = 4ull << 10, kActor = 32ull << 10, kRankPair = 256,
                          kTask = 128;
  const auto add = [](std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; };
  const auto job = [&](const SimConfig& c, const trace::Trace& t) {
    const auto ranks = static_cast<std::uint64_t>(std::max(c.ranks, 1));
    // Each rank runs its workers, a receiver and a comm actor (and under hunger splitting a splitter).
    const std::uint64_t perRank = static_cast<std::uint64_t>(c.workers) + (c.splitOnHunger ? 3 : 2);
    std::uint64_t bytes = saturatingMul(saturatingMul(ranks, perRank), kActor);
    bytes = add(bytes, saturatingMul(saturatingMul(ranks, ranks), kRankPair));
    std::uint64_t tasks = t.tasks.size();
    for (const auto& l : t.levels) tasks = add(tasks, l.tasks.size() + l.improvements.size());
    return add(bytes, saturatingMul(tasks, kTask));
  };
  std::uint64_t bytes = add(kProcess, saturatingMul(static_cast<std::uint64_t>(std::max(cfg.platform.hosts, 0)), kHost));
  bytes = add(bytes, job(cfg, trace));
  if (corunCfg && corunTrace) bytes = add(bytes, job(*corunCfg, *corunTrace));
  return bytes;
}

}  // namespace jackdaw::sim
