// One simulated job: its ranks (pool, workers' accounts, the comm actor's counters, the policy
// and its view), the recorded trees it replays, and the messages its comm actors exchange.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include <simgrid/s4u.hpp>

#include "jackdaw/comm/comm_stats.hpp"
#include "jackdaw/comm/local_work.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/comm/steal_protocol.hpp"
#include "jackdaw/core/hunger_rule.hpp"
#include "jackdaw/core/work_rate.hpp"
#include "jackdaw/sim/replay.hpp"
#include "jackdaw/trace/trace.hpp"
#include "private_stacks.hpp"
#include "rank_pool.hpp"
#include "sim_board.hpp"
#include "sim_time.hpp"
#include "utilisation.hpp"

namespace jackdaw::sim::detail {

// What the network carries for a steal request and an answer's header: their wire sizes
// (comm/steal_protocol.hpp), as the comm thread sends them.
constexpr double kRequestBytes = comm::kStealRequestBytes;
constexpr double kReplyHeader = comm::kAnswerHeaderBytes;

// A steal request, or an answer: its header and the tasks (RankWork::giveAway's bytes).
struct Msg {
  enum Kind { Request, Reply } kind = Request;
  int from = -1;
  comm::StealRequest request;
  comm::AnswerHeader answer;
  std::vector<std::byte> tasks;
};

struct Rank {
  int id = 0;
  sg4::Host* host = nullptr;
  int* hostRunning = nullptr;  // this host's entry of the HostLoad
  bool mpiYields = false;      // Open MPI yields here: the job has more ranks on the host than cores
  sg4::Mailbox* box = nullptr;
  Pool pool;
  int idle = 0, running = 0;
  std::deque<WorkerAccount> accounts;  // not movable (atomic rate): a deque never moves them
  std::vector<std::uint64_t> workerTasks, workerNodes, workerLargest;
  sg4::MutexPtr mutex;
  sg4::ConditionVariablePtr workAvailable;  // workers wait here
  sg4::ConditionVariablePtr commWake;       // the comm actor sleeps here
  std::deque<Msg*> inbox;                   // delivered by the receiver actor
  bool woken = false;
  std::uint64_t nodes = 0, created = 0, finished = 0;  // tasks made here, tasks run here
  comm::CommStats stats;
  std::unique_ptr<comm::BoardView> view;
  std::unique_ptr<comm::VictimPolicy> policy;
  std::uint64_t boardMessages = 0, boardBytes = 0;
  double firstTaskAt = -1;  // when a worker of this rank first started a task (ramp-up)
  // Incumbent replay: the strongest tree this rank's bound allows (Job::trees), from its own finds
  // and from what reached its board; bounds on their way to it (arrival time, tree).
  int tree = 0, ownTree = 0;
  std::vector<std::pair<double, int>> boundArrivals;
  std::uint64_t boardRecordsIn = 0;  // board on messages: peers' records this comm actor has yet to take
  std::vector<std::uint64_t> startedIn;  // tasks started in each tree
  std::vector<std::uint64_t> nodesIn;    // nodes run in each tree's version of a task
  // Per tree, since the job's start: when this rank's own find first reached it, and when a task
  // here first ran in it (a find or a bound that arrived); -1: never.
  std::vector<double> foundAt, ranAt;
  double spin = 0;  // --slow-as spin on a slow host: busy work after each task, times the task's time
  std::mt19937_64 jitter;  // --task-jitter's stream (seeded from the run's seed and this rank)
  std::uint64_t pruned = 0;              // tasks that did not exist in the tree they would have run in
  // Hunger splitting (private_stacks.hpp; null in tree mode): the workers' private stacks, a
  // remote thief's request that found the pool empty (the engine's requestSplit), and where the
  // rank's splitter actor waits for hunger.
  std::unique_ptr<PrivateStacks> split;
  bool remoteHunger = false;
  sg4::ConditionVariablePtr splitWake;

  std::size_t stealable() const { return comm::stealableCount(pool.size(), idle); }
  std::size_t spareFor(bool seed) const { return comm::spareFor(seed, pool.size(), idle, running); }
  bool needsWork() const { return comm::poolCannotFeed(pool.size(), idle); }
  // The engine's hungry(): a worker here, or a remote thief, could take work the pool lacks.
  bool hungry() const { return (idle > 0 || remoteHunger) && pool.size() == 0; }
  // Hunger splitting: let the splitter look again if a split may now be due.
  void hungerChanged() {
    if (split && hungry() && split->donor() >= 0) splitWake->notify_one();
  }
  double workRate() const {
    double s = 0;
    for (const auto& a : accounts) s += a.workRate();
    return accounts.empty() ? 1.0 : s / static_cast<double>(accounts.size());
  }
  void wake() {
    woken = true;
    commWake->notify_all();
  }
};

// A task as the pools hold it: which tree (Job::trees) and its id there.
constexpr int kTreeShift = 56;
inline std::uint64_t pack(int tree, std::uint64_t id) { return id | (static_cast<std::uint64_t>(tree) << kTreeShift); }
inline int treeOf(std::uint64_t packed) { return static_cast<int>(packed >> kTreeShift); }
inline std::uint64_t idOf(std::uint64_t packed) { return packed & ((std::uint64_t{1} << kTreeShift) - 1); }

// One recorded tree: the trace's own (tree 0, under its initial bound) or one of its levels.
struct Tree {
  double bound = 0;
  const std::vector<trace::TaskRecord>* tasks = nullptr;
  const std::vector<std::uint64_t>* stronger = nullptr;  // the same task in tree − 1 (null for tree 0)
  std::vector<std::vector<std::uint64_t>> children;      // in spawn order
  std::vector<trace::Improvement> improvements;          // by task, then afterNodes
  std::vector<std::size_t> firstImprovement;             // per task: its first in `improvements`
  const trace::TaskRecord& task(std::uint64_t id) const { return (*tasks)[id]; }
};

// Worker actors running a task on each host, over every job (a co-running one shares the cores).
using HostLoad = std::map<const sg4::Host*, int>;

struct Job {
  SimConfig cfg;
  const trace::Trace* trace = nullptr;
  std::vector<Tree> trees;  // strongest first; more than one: the incumbent is replayed
  bool maximise = true;
  std::vector<std::unique_ptr<Rank>> ranks;
  std::unique_ptr<Board> board;
  std::uint64_t outstanding = 0;  // tasks pushed and not yet finished
  bool done = false;
  double lastTaskEnd = 0, endTime = 0, startTime = 0;
  Utilisation busy;  // every worker's busy intervals, since startTime

  bool pushes() const { return cfg.steal.board == comm::BoardScheme::All; }
  // A message's one-way time without contention: on one host the loopback, between hosts two
  // host links (the board's delivery and the probes use it; steals go through SimGrid's network).
  double delayS(bool sameHost, double bytes) const {
    const auto& p = cfg.platform;
    return sameHost ? p.loopbackLatencyUs * 1e-6 + bytes * 8 / (p.loopbackGbps * 1e9)
                    : 2 * p.linkLatencyUs * 1e-6 + bytes * 8 / (p.linkGbps * 1e9);
  }
  double oneWayS(const Rank& a, const Rank& b, double bytes) const { return delayS(a.host == b.host, bytes); }
  // The slowest pair of this job's ranks (all on one host, or not).
  double farS(double bytes) const {
    bool spread = false;
    for (const auto& r : ranks) spread |= r->host != ranks[0]->host;
    return ranks.size() < 2 ? 0.0 : delayS(!spread, bytes);
  }

  // The strongest tree a rank holding an incumbent of `value` may run in.
  int treeFor(double value) const {
    for (std::size_t i = 0; i < trees.size(); ++i)
      if (maximise ? trees[i].bound <= value : trees[i].bound >= value) return static_cast<int>(i);
    return static_cast<int>(trees.size()) - 1;
  }
  const trace::TaskRecord& task(std::uint64_t packed) const { return trees[static_cast<std::size_t>(treeOf(packed))].task(idOf(packed)); }

  void taskDone() {
    if (--outstanding > 0) return;
    lastTaskEnd = nowS();
    done = true;
    // Counting waves (comm_thread.hpp): a wave starts within waveInterval of the last task, and
    // the decision needs two identical snapshots: two allreduces of 2·log2(P) message delays.
    const double P = static_cast<double>(ranks.size());
    const double allreduce = P > 1 ? 2 * std::ceil(std::log2(P)) * farS(48) : 0.0;
    endTime = lastTaskEnd + (P > 1 ? 1e-6 * static_cast<double>(cfg.comm.waveInterval.count()) + 2 * allreduce : 0.0);
    for (auto& r : ranks) {
      r->workAvailable->notify_all();
      r->wake();
    }
  }
};

// Worker w of rank r splits under the run's --split-chunk; remote: for a thief of another rank
// (the engine's requestSplit), else for an idle worker of r.
inline std::vector<std::uint64_t> splitFor(const Job& job, Rank& r, int w, bool remote) {
  const SimConfig& c = job.cfg;
  switch (c.splitChunk) {
    case SimConfig::SplitChunk::Level: return r.split->split(w, c.splitCostNs, 0, true);
    case SimConfig::SplitChunk::Rule: return r.split->split(w, c.splitCostNs, hungerChunk(remote));
    case SimConfig::SplitChunk::One: break;
  }
  return r.split->split(w, c.splitCostNs, 1);
}

}  // namespace jackdaw::sim::detail
