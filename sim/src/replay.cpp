#include "jackdaw/sim/replay.hpp"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <vector>

#include "jackdaw/comm/comm_stats.hpp"
#include "jackdaw/comm/local_work.hpp"
#include "jackdaw/comm/seed_tree.hpp"
#include "jackdaw/core/memory_budget.hpp"
#include "jackdaw/core/work_rate.hpp"
#include "private_stacks.hpp"
#include "utilisation.hpp"

namespace sg4 = simgrid::s4u;

namespace jackdaw::sim {
namespace {

double nowS() { return sg4::Engine::get_clock(); }
std::uint64_t nowNs() { return static_cast<std::uint64_t>(std::llround(nowS() * 1e9)); }
double nowUs() { return nowS() * 1e6; }

constexpr double kRecordBytes = 64;   // a board record: 8 cells of 8 bytes (comm/board.hpp)
constexpr double kRequestBytes = 24;  // StealRequest
constexpr double kReplyHeader = 4;    // the task count before the tasks

// A rank's pool: the owner takes the deepest task, a thief the shallowest; within a depth, first
// in first out, as the engine's DepthPool (core/work_pool.hpp). The order matters to branch and
// bound: a model's generator yields its most promising children first.
class Pool {
 public:
  void push(std::uint64_t id, std::uint32_t depth) {
    byDepth_[depth].push_back(id);
    ++size_;
  }
  std::size_t size() const { return size_; }
  std::uint64_t popDeepest() {
    auto it = std::prev(byDepth_.end());
    const std::uint64_t id = it->second.front();
    it->second.pop_front();
    if (it->second.empty()) byDepth_.erase(it);
    --size_;
    return id;
  }
  std::uint64_t takeShallowest() {
    auto it = byDepth_.begin();
    const std::uint64_t id = it->second.front();
    it->second.pop_front();
    if (it->second.empty()) byDepth_.erase(it);
    --size_;
    return id;
  }

 private:
  std::map<std::uint32_t, std::deque<std::uint64_t>> byDepth_;
  std::size_t size_ = 0;
};

struct Msg {
  enum Kind { Request, Reply } kind = Request;
  int from = -1;
  std::uint64_t id = 0;
  bool seen = false;               // the thief's board had a record of the victim
  std::uint64_t promised = 0;      // ... saying this many stealable tasks
  std::vector<std::uint64_t> tasks;
  bool seed = false;               // a seed request (seed_tree.hpp), or the answer to one
  int redirect = -1;               // a refused seed request: the rank to ask next
};

struct Job;

// What the ranks have published, as the board's scheme lets a reader see it. Scheme all: a record
// reaches every window one network delay after it is published (4·(P−1) puts per publish).
// Scheme sample: it stays in its owner's window until a thief reads it there (3 round trips).
class Board {
 public:
  Board(int ranks, double delayS) : delayS_(delayS), history_(static_cast<std::size_t>(ranks)), current_(static_cast<std::size_t>(ranks)) {}
  void publish(int r, const comm::RankRecord& rec) {
    current_[static_cast<std::size_t>(r)] = rec;
    history_[static_cast<std::size_t>(r)].push_back({nowS() + delayS_, rec});
  }
  // The newest record of r that has reached the other windows by now.
  std::optional<comm::RankRecord> pushed(int r) {
    auto& h = history_[static_cast<std::size_t>(r)];
    const double t = nowS();
    while (h.size() > 1 && h[1].first <= t) h.pop_front();
    if (h.empty() || h.front().first > t) return std::nullopt;
    return h.front().second;
  }
  // At the owner (a one-sided read): the latest.
  std::optional<comm::RankRecord> atOwner(int r) const { return current_[static_cast<std::size_t>(r)]; }

 private:
  double delayS_;
  std::vector<std::deque<std::pair<double, comm::RankRecord>>> history_;
  std::vector<std::optional<comm::RankRecord>> current_;
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
  std::uint64_t nodes = 0, finished = 0;
  comm::CommStats stats;
  std::unique_ptr<comm::BoardView> view;
  std::unique_ptr<comm::VictimPolicy> policy;
  std::uint64_t boardMessages = 0, boardBytes = 0;
  double firstTaskAt = -1;  // when a worker of this rank first started a task (ramp-up)
  // Incumbent replay: the strongest tree this rank's bound allows (Job::trees), from its own finds
  // and from what reached its board; bounds on their way to it (arrival time, tree).
  int tree = 0, ownTree = 0;
  std::vector<std::pair<double, int>> boundArrivals;
  std::vector<std::uint64_t> startedIn;  // tasks started in each tree
  std::uint64_t pruned = 0;              // tasks that did not exist in the tree they would have run in
  // Hunger splitting (private_stacks.hpp; null in tree mode): the workers' private stacks, a
  // remote thief's request that found the pool empty (the engine's requestSplit), and where the
  // rank's splitter actor waits for hunger.
  std::unique_ptr<PrivateStacks> split;
  bool remoteHunger = false;
  sg4::ConditionVariablePtr splitWake;

  std::size_t stealable() const { return comm::stealableCount(pool.size(), idle); }
  std::size_t spareFor(bool seed) const { return comm::spareFor(seed, pool.size(), idle, running); }
  bool needsWork() const { return idle > 0 && pool.size() == 0; }
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
std::uint64_t pack(int tree, std::uint64_t id) { return id | (static_cast<std::uint64_t>(tree) << kTreeShift); }
int treeOf(std::uint64_t packed) { return static_cast<int>(packed >> kTreeShift); }
std::uint64_t idOf(std::uint64_t packed) { return packed & ((std::uint64_t{1} << kTreeShift) - 1); }

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

  bool pushes() const { return cfg.board == comm::BoardScheme::All; }
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

// The board as a policy on rank `self` reads it.
class SimBoardView final : public comm::BoardView {
 public:
  SimBoardView(Job& job, Rank& self) : job_(job), self_(self), rng_(job.cfg.seed ^ (0x51ed2705ULL * (self.id + 1))) {}
  std::optional<comm::RankRecord> read(int r) const override {
    if (job_.pushes()) return job_.board->pushed(r);
    return fetched_.count(r) ? std::optional(fetched_.at(r)) : std::nullopt;
  }
  bool samples() const override { return !job_.pushes(); }
  comm::Candidates candidates(int self, int size) override {
    if (job_.pushes()) return comm::everyOtherRank(self, size);
    comm::Candidates c = comm::sampleOtherRanks(self, size, job_.cfg.boardSample, rng_);
    refresh(c.ranks);
    c.fresh = true;
    return c;
  }
  // One-sided reads at the owners: three dependent phases of gets, each a round trip (board.cpp).
  void refresh(std::span<const int> ranks) override {
    if (ranks.empty()) return;
    double rtt = 0;
    for (int r : ranks) rtt = std::max(rtt, 2 * job_.oneWayS(self_, *job_.ranks[static_cast<std::size_t>(r)], kRecordBytes));
    const double t0 = nowS();
    sg4::this_actor::sleep_for(3 * rtt);
    for (int r : ranks)
      if (auto rec = job_.board->atOwner(r)) fetched_[r] = *rec;
    ++self_.stats.boardFetches;
    self_.stats.fetchedRecords += ranks.size();
    self_.stats.fetchUsTotal += 1e6 * (nowS() - t0);
    self_.boardMessages += 6 * ranks.size();
    self_.boardBytes += static_cast<std::uint64_t>(ranks.size() * (kRecordBytes + 16) + 6 * ranks.size() * 8);
  }

 private:
  Job& job_;
  Rank& self_;
  std::mt19937_64 rng_;
  std::map<int, comm::RankRecord> fetched_;
};

void execNs(double ns) {
  if (ns >= 1.0) sg4::this_actor::execute(ns);  // 1 flop = 1 ns on the recording core
}

// A task into r's pool: a new one (counted until it finishes), or one stolen from another rank.
void pushTask(Job& job, Rank& r, std::uint64_t packed, bool isNew = true) {
  r.pool.push(packed, job.task(packed).depth);
  if (isNew) ++job.outstanding;
  r.workAvailable->notify_one();
}

// A child reached its spawn point on worker w: into the rank's pool, or under hunger splitting
// onto w's private stack (counted until it finishes, like any new task).
void spawnTask(Job& job, Rank& r, int w, std::uint64_t packed) {
  if (!r.split) return pushTask(job, r, packed);
  r.split->push(w, packed, job.task(packed).depth);
  ++job.outstanding;
  r.hungerChanged();
}

// Hunger splitting: one per rank. While the rank is hungry and some worker holds private work,
// the worker holding the shallowest (PrivateStacks::donor) splits at its next hunger check (a
// check period of that worker's task's nodes from now): its oldest entry goes to the pool, which
// wakes an idle worker or waits for the next steal request, and it pays the split's cost.
void splitter(Job& job, Rank& r) {
  std::unique_lock lock(*r.mutex);
  for (;;) {
    while (!job.done && !(r.hungry() && r.split->donor() >= 0)) r.splitWake->wait(lock);
    if (job.done) return;
    const int first = r.split->donor();
    const double waitS = job.cfg.splitCheckNodes * r.split->rate(first) / r.host->get_speed();
    if (waitS > 0) {
      lock.unlock();
      sg4::this_actor::sleep_for(waitS);
      lock.lock();
    }
    if (job.done) return;
    if (!r.hungry() || r.split->donor() < 0) continue;
    const auto tasks = r.split->split(r.split->donor(), job.cfg.splitCostNs, job.cfg.splitLevel);
    r.remoteHunger = false;  // as the engine's push()
    for (std::uint64_t t : tasks) pushTask(job, r, t, false);
  }
}

// The rank's bound rose to tree `t` by its own find.
void foundBetter(Rank& r, int t) {
  r.ownTree = std::min(r.ownTree, t);
  r.tree = std::min(r.tree, t);
}

// A long stretch of a task is run in pieces this long, so that a bound arriving meanwhile reaches it.
constexpr double kBoundCheckNs = 500e3;

// Task `id` of tree `from` as a task of the stronger tree `to`; kNoTask if one between prunes it.
std::uint64_t climbTo(const Job& job, int from, std::uint64_t id, int to) {
  for (int tr = from; tr > to && id != trace::kNoTask; --tr) id = (*job.trees[static_cast<std::size_t>(tr)].stronger)[id];
  return id;
}

// Runs task `packed`: its recorded CPU time, releasing each child at its spawn point. Under an
// incumbent replay it runs in the strongest tree the rank's bound allows, and when that bound gets
// better (a find of its own, or one that arrived) it goes on as the same task of the stronger tree
// from the same share of its nodes, or ends there if the stronger tree prunes it. Children it has
// released stay released (each becomes its stronger self when it starts); the stronger version's
// other children are released at their own points, at once if those have passed.
void runTask(Job& job, Rank& r, int w, std::uint64_t packed) {
  int tr = treeOf(packed);
  std::uint64_t id = idOf(packed);
  if (r.tree < tr) {
    id = climbTo(job, tr, id, r.tree);
    tr = r.tree;
  }
  if (id == trace::kNoTask) {
    ++r.pruned;
    return;
  }
  ++r.startedIn[static_cast<std::size_t>(tr)];
  if (r.split) {
    r.split->setInTask(w, true);
    r.hungerChanged();
  }
  double pos = 0;             // nodes into the task, in tree `tr`'s version of it
  std::uint64_t visited = 0;  // nodes run, across versions
  const bool replaying = job.trees.size() > 1;
  std::vector<std::uint64_t> released;  // replaying: children released so far (packed)
  for (;;) {
    const Tree& t = job.trees[static_cast<std::size_t>(tr)];
    const auto& rec = t.task(id);
    const double end = static_cast<double>(rec.nodes);
    const double nsPerNode = rec.nodes ? static_cast<double>(rec.cpuNs) / end : 0.0;
    // This version's children still to release: after a change of tree, those no released child
    // becomes; else all of them.
    std::vector<std::uint64_t> rest;
    const std::vector<std::uint64_t>* kids = &t.children[id];
    if (!released.empty()) {
      std::vector<std::uint64_t> already;
      for (std::uint64_t c : released) already.push_back(climbTo(job, treeOf(c), idOf(c), tr));
      std::sort(already.begin(), already.end());
      for (std::uint64_t c : *kids)
        if (!std::binary_search(already.begin(), already.end(), c)) rest.push_back(c);
      kids = &rest;
    }
    auto kid = kids->begin();
    std::size_t imp = t.firstImprovement.empty() ? 0 : t.firstImprovement[id];
    const std::size_t impEnd = t.firstImprovement.empty() ? 0 : t.firstImprovement[id + 1];
    while (imp < impEnd && static_cast<double>(t.improvements[imp].afterNodes) < pos) ++imp;
    if (r.split) r.split->setRate(w, nsPerNode);
    if (rec.nodes == 0) execNs(static_cast<double>(rec.cpuNs));
    int better = tr;
    for (;;) {
      for (; kid != kids->end() && static_cast<double>(t.task(*kid).afterNodes) <= pos; ++kid) {
        if (replaying) released.push_back(pack(tr, *kid));
        spawnTask(job, r, w, pack(tr, *kid));
      }
      for (; imp < impEnd && static_cast<double>(t.improvements[imp].afterNodes) <= pos; ++imp)
        foundBetter(r, job.treeFor(t.improvements[imp].objective));
      better = std::min(tr, r.tree);
      if (pos >= end || better < tr) break;
      // Run to the next event: a child's spawn point, an improvement, the end, or a bound check.
      double next = end;
      if (kid != kids->end()) next = std::min(next, static_cast<double>(t.task(*kid).afterNodes));
      if (imp < impEnd) next = std::min(next, static_cast<double>(t.improvements[imp].afterNodes));
      if (job.trees.size() > 1) next = std::min(next, pos + std::max(1.0, kBoundCheckNs / std::max(nsPerNode, 1e-9)));
      execNs((next - pos) * nsPerNode + (r.split ? r.split->takeDebt(w) : 0.0));
      visited += static_cast<std::uint64_t>(std::llround(next)) - static_cast<std::uint64_t>(std::llround(pos));
      pos = next;
    }
    if (better == tr) break;  // the task ended
    const std::uint64_t up = climbTo(job, tr, id, better);
    if (up == trace::kNoTask) break;  // the better bound prunes the rest
    pos = end > 0 ? pos / end * static_cast<double>(job.trees[static_cast<std::size_t>(better)].task(up).nodes) : 0.0;
    tr = better;
    id = up;
  }
  if (r.split) {
    // Splits since the task's last stretch began (one may come while this one is paid).
    for (double debt = r.split->takeDebt(w); debt > 0; debt = r.split->takeDebt(w)) execNs(debt);
    r.split->setInTask(w, false);
  }
  r.nodes += visited;
  r.workerNodes[static_cast<std::size_t>(w)] += visited;
  r.workerLargest[static_cast<std::size_t>(w)] = std::max(r.workerLargest[static_cast<std::size_t>(w)], visited);
}

void worker(Job& job, Rank& r, int w) {
  auto& account = r.accounts[static_cast<std::size_t>(w)];
  std::unique_lock lock(*r.mutex);
  std::optional<std::uint64_t> own;  // hunger splitting: the next task from this worker's own stack
  for (;;) {
    std::uint64_t id = 0;
    if (own) {
      id = *own;  // still busy: no pool, no idle spell
    } else {
      r.hungerChanged();
      while (r.pool.size() == 0 && !job.done) r.workAvailable->wait(lock);
      if (job.done) return;
      id = r.pool.popDeepest();
      if (r.firstTaskAt < 0) r.firstTaskAt = nowS();
      --r.idle;
      ++r.running;
      ++*r.hostRunning;
      r.hungerChanged();
    }
    account.startWork(nowUs());
    const double began = nowS();
    lock.unlock();
    runTask(job, r, w, id);
    lock.lock();
    account.endWork(nowUs());
    job.busy.add(began - job.startTime, nowS() - job.startTime);
    ++r.workerTasks[static_cast<std::size_t>(w)];
    own = r.split ? r.split->popNewest(w) : std::nullopt;
    if (!own) {
      --r.running;
      --*r.hostRunning;
      ++r.idle;
    }
    ++r.finished;
    job.taskDone();
    if (!own && r.pool.size() == 0) r.wake();  // the pool ran dry: this rank may need to steal
  }
}

// Delivers what arrives in the rank's mailbox to its comm actor. With the doorbell a request
// wakes the victim's comm actor at once, provided a worker is busy to poll the bell; replies and
// unrung requests wait for the comm actor's next look, as in the runtime.
void receiver(Job& job, Rank& r) {
  for (;;) {
    Msg* m = r.box->get<Msg>();
    r.inbox.push_back(m);
    if (m->kind == Msg::Request && job.cfg.comm.doorbell && r.running > 0) r.wake();
  }
}

class CommActor {
 public:
  CommActor(Job& job, Rank& r)
      : job_(job), r_(r), o_(job.cfg.comm), seedVictim_(comm::seedParent(r.id, o_.seedArity)),
        seeding_(seedVictim_ >= 0) {}

  void run() {
    auto backoff = o_.minSleep;
    std::unique_lock lock(*r_.mutex);
    bool slept = false;  // this turn follows a sleep
    while (!job_.done) {
      startTurn(lock, slept);
      slept = false;
      if (job_.done) break;
      const std::uint64_t now = nowNs();
      bool active = handleInbox(lock);
      exchangeBound();
      active |= serveHeld();
      active |= maybeSteal(now, lock);
      maybePublish(now);
      maybeProbe(now, lock);
      if (now >= nextRefreshNs_ && r_.policy) {
        lock.unlock();
        nextRefreshNs_ = r_.policy->refresh(nowNs());
        lock.lock();
      }
      if (job_.done) break;
      if (active) {
        backoff = o_.minSleep;
        continue;
      }
      // Held seed requests wait for spare work, which no one announces: look as often as for a reply.
      const comm::Sleep sleep =
          comm::nextSleep(o_, backoff, inflight_ || !held_.empty(), lastRecord_.pooled > 0, r_.idle, false);
      slept = !r_.woken;
      if (slept) {
        r_.commWake->wait_for(lock, 1e-6 * static_cast<double>(sleep.now.count()));
        ++r_.stats.commSleeps;
        cpu(lock, job_.cfg.platform.wakeCpuUs);  // what the sleep and the wake-up cost its CPU
      }
      r_.woken = false;
      backoff = std::min(sleep.now * 2, sleep.cap);
    }
    endBurst();
  }

 private:
  // A turn starts in MPI (a probe for messages). When Open MPI yields (more of the job's ranks on
  // the host than cores) and every core runs a worker, the yield hands the core to a worker and the
  // turn starts only when that worker's time slice ends (the constant also holds the late wake-up
  // that follows a yield: PlatformSpec::yieldSliceUs). Otherwise a turn after a sleep starts as
  // late as a wake-up runs (PlatformSpec::wakeLateUs).
  void startTurn(std::unique_lock<sg4::Mutex>& lock, bool afterSleep) {
    const auto& p = job_.cfg.platform;
    const bool yields = r_.mpiYields && *r_.hostRunning >= r_.host->get_core_count();
    const double waitUs = yields ? p.yieldSliceUs : afterSleep ? p.wakeLateUs : 0.0;
    if (waitUs <= 0) return;
    lock.unlock();
    sg4::this_actor::sleep_for(1e-6 * waitUs);
    lock.lock();
    if (yields) ++yields_;
  }

  // The comm actor's CPU on the host's shared cores, without holding the rank.
  void cpu(std::unique_lock<sg4::Mutex>& lock, double us) {
    if (us <= 0) return;
    lock.unlock();
    execNs(us * 1e3);
    lock.lock();
  }

  bool handleInbox(std::unique_lock<sg4::Mutex>& lock) {
    bool any = false;
    while (!r_.inbox.empty()) {
      std::unique_ptr<Msg> m(r_.inbox.front());
      r_.inbox.pop_front();
      any = true;
      cpu(lock, job_.cfg.commCostUs);
      if (m->kind == Msg::Request) answer(*m);
      else reply(*m);
    }
    return any;
  }

  // A seed request that gets nothing now waits for work instead (seed_tree.hpp)?
  bool keepHolding(double heldUs) const {
    const bool hasWork = r_.running > 0 || r_.pool.size() > 0;
    return r_.spareFor(true) == 0 && !job_.done &&
           comm::holdSeedRequest(seeding_, hasWork, heldUs, static_cast<double>(o_.seedHoldMax.count()));
  }

  void answer(const Msg& q) {
    const std::uint64_t at = nowNs();
    if (burst_ > 0 && at - lastRequestNs_ > static_cast<std::uint64_t>(o_.herdWindow.count()) * 1000) endBurst();
    ++burst_;
    lastRequestNs_ = at;
    if (q.seed && keepHolding(0.0)) {
      held_.push_back({q.from, q.id, nowS()});
      ++r_.stats.seedsHeld;
      return;
    }
    give(q);
  }

  // Held seed requests: answered with work once there is spare, refused once holding is over.
  bool serveHeld() {
    bool any = false;
    for (auto it = held_.begin(); it != held_.end();) {
      const double heldUs = 1e6 * (nowS() - it->since);
      if (keepHolding(heldUs)) {
        ++it;
        continue;
      }
      r_.stats.seedHoldUsTotal += heldUs;
      give(Msg{Msg::Request, it->from, it->id, false, 0, {}, true});
      it = held_.erase(it);
      any = true;
    }
    return any;
  }

  void give(const Msg& q) {
    auto* a = new Msg{Msg::Reply, r_.id, q.id, false, 0, {}, q.seed};
    double bytes = kReplyHeader;
    // As SearchWork::giveAway, shallowest first.
    const std::size_t spare = job_.done ? 0 : r_.spareFor(q.seed);
    // Hunger splitting: nothing to give and nothing pooled asks a busy worker to split (as
    // SearchWork::giveAway's requestSplit); the thief's next request may find it.
    // With --split-remote direct (not the runtime's rule: a what-if) a busy worker's split goes
    // into this answer instead, its hunger check's wait (a node or so) left out.
    std::vector<std::uint64_t> direct;
    if (spare == 0 && r_.split && !job_.done && job_.cfg.splitDirect && r_.split->donor() >= 0)
      direct = r_.split->split(r_.split->donor(), job_.cfg.splitCostNs, job_.cfg.splitLevel);
    else if (spare == 0 && r_.split && r_.pool.size() == 0 && !job_.done) {
      r_.remoteHunger = true;
      r_.hungerChanged();
    }
    const std::size_t want = comm::tasksPerSteal(spare, o_.stealHalf);
    for (std::size_t i = 0; i < want; ++i) direct.push_back(r_.pool.takeShallowest());
    for (std::uint64_t id : direct) {
      a->tasks.push_back(id);
      bytes += job_.task(id).bytes;
    }
    const auto count = a->tasks.size();
    if (count == 0 && q.seed && !job_.done) {
      a->redirect = comm::seedRedirect(r_.id, o_.seedArity, o_.seedRedirect);
      if (a->redirect >= 0) bytes += 4;
    }
    if (count > 0 || lastRecord_.queued > 0) publishSoon_ = true;
    if (count > 0) r_.hungerChanged();
    ++r_.stats.requestsAnswered;
    if (q.seen && q.promised > 0) {
      ++r_.stats.requestsPromised;
      if (count == 0) ++r_.stats.promisedRefused;
    } else if (count > 0) {
      ++r_.stats.unpromisedGranted;
    }
    if (count) {
      ++r_.stats.requestsGranted;
      r_.stats.tasksSent += count;
      r_.stats.bytesSent += static_cast<std::uint64_t>(bytes - kReplyHeader);
    }
    job_.ranks[static_cast<std::size_t>(q.from)]->box->put_init(a, static_cast<std::uint64_t>(bytes))->detach();
  }

  void reply(const Msg& m) {
    const std::uint64_t t = nowNs();
    comm::StealOutcome o;
    o.victim = m.from;
    o.gotWork = !m.tasks.empty();
    o.tasks = static_cast<std::uint32_t>(m.tasks.size());
    if (inflight_) {
      o.roundTripUs = 1e-3 * static_cast<double>(t - sentNs_);
      inflight_ = false;
    }
    r_.stats.stealRoundTripUsTotal += o.roundTripUs;
    if (m.seed) {
      // As CommThread: work, or a refusal that names no rank, ends the seed phase; a named rank
      // gets the next seed request.
      if (o.gotWork) {
        ++r_.stats.seedsGranted;
        seeding_ = false;
      } else if (comm::followSeedRedirect(m.redirect, r_.id, static_cast<int>(job_.ranks.size()), job_.done)) {
        seedVictim_ = m.redirect;
        ++r_.stats.seedRedirects;
      } else {
        seeding_ = false;
      }
    }
    if (o.gotWork) {
      ++r_.stats.stealsGranted;
      r_.stats.tasksReceived += m.tasks.size();
      for (std::uint64_t id : m.tasks) {
        r_.stats.bytesReceived += job_.task(id).bytes;
        pushTask(job_, r_, id, false);
      }
      stealRetryUs_ = 0;
      nextStealNs_ = 0;
    } else {
      ++r_.stats.stealsRefused;
      stealRetryUs_ = stealRetryUs_ == 0 ? static_cast<std::uint64_t>(o_.minSleep.count())
                                         : std::min<std::uint64_t>(stealRetryUs_ * 2, o_.stealRetryMax.count());
      nextStealNs_ = t + stealRetryUs_ * 1000;
    }
    if (m.seed) {
      // Not the policy's choice: nothing to tell it, and a refused seed means steal at once.
      if (!o.gotWork) nextStealNs_ = 0;
      return;
    }
    const std::int64_t d = r_.policy->onOutcome(o);
    if (!o.gotWork && d >= 0) nextStealNs_ = t + static_cast<std::uint64_t>(d) * 1000;
    if (o.roundTripUs > 0) {
      comm::addLog2(r_.stats.roundTripLog2, o.roundTripUs);
      rttSum_[static_cast<std::size_t>(o.victim)] += o.roundTripUs;
      ++rttN_[static_cast<std::size_t>(o.victim)];
      r_.policy->onRoundTrip(o.victim, o.roundTripUs);
    }
  }

  bool maybeSteal(std::uint64_t now, std::unique_lock<sg4::Mutex>& lock) {
    if (job_.ranks.size() < 2) return false;
    const bool hungry = r_.needsWork();
    if (hungry && !hungry_) {
      ++r_.stats.hungerEpisodes;
      r_.policy->onHungry();
    }
    hungry_ = hungry;
    if (inflight_ || now < nextStealNs_ || !hungry) return false;
    if (seeding_) return sendSeedRequest();
    lock.unlock();
    const int victim = r_.policy->choose();  // may read records at their owners (scheme sample)
    lock.lock();
    if (victim < 0 || victim == r_.id || job_.done) return false;
    auto* q = new Msg{Msg::Request, r_.id, r_.stats.stealRequestsSent, false, 0, {}};
    if (auto rec = r_.view->read(victim)) {
      q->seen = true;
      q->promised = rec->queued;
      comm::addLog2(r_.stats.recordAgeLog2, 1e-3 * static_cast<double>(now - std::min(now, rec->timeNs)));
    }
    sentNs_ = nowNs();
    inflight_ = true;
    job_.ranks[static_cast<std::size_t>(victim)]->box->put_init(q, static_cast<std::uint64_t>(kRequestBytes))->detach();
    if (o_.doorbell) ++r_.stats.doorbellRings;
    ++r_.stats.stealRequestsSent;
    if (r_.stats.choiceBins.size() < comm::CommStats::kMaxChoices) {
      r_.stats.choiceBins.push_back(static_cast<std::uint32_t>(now / 10'000'000));
      r_.stats.choiceVictims.push_back(static_cast<std::uint32_t>(victim));
    } else {
      ++r_.stats.choicesDropped;
    }
    return true;
  }

  bool sendSeedRequest() {
    const int parent = seedVictim_;
    auto* q = new Msg{Msg::Request, r_.id, r_.stats.stealRequestsSent, false, 0, {}, true};
    sentNs_ = nowNs();
    inflight_ = true;
    job_.ranks[static_cast<std::size_t>(parent)]->box->put_init(q, static_cast<std::uint64_t>(kRequestBytes))->detach();
    if (o_.doorbell) ++r_.stats.doorbellRings;
    ++r_.stats.stealRequestsSent;
    ++r_.stats.seedRequests;
    return true;
  }

  // As CommThread::maybePublish: on change, at most every publishInterval on the pushed board,
  // at once when the stealable count crosses zero or a steal was answered.
  void maybePublish(std::uint64_t now) {
    comm::RankRecord rec;
    rec.queued = r_.stealable();
    const bool crossed = everPublished_ && ((rec.queued == 0) != (lastRecord_.queued == 0));
    const bool force = crossed || publishSoon_;
    const bool pushes = job_.pushes();
    const auto interval = pushes ? static_cast<std::uint64_t>(o_.publishInterval.count()) * 1000 : 0;
    if (!force && everPublished_ && now - lastPublishNs_ < interval) return;
    rec.workRate = r_.workRate();
    rec.pooled = r_.pool.size();
    rec.running = static_cast<std::uint64_t>(r_.running);
    rec.idle = static_cast<std::uint64_t>(r_.idle);
    publishSoon_ = false;
    if (everPublished_ && rec.workRate == lastRecord_.workRate && rec.queued == lastRecord_.queued &&
        rec.pooled == lastRecord_.pooled && rec.running == lastRecord_.running && rec.idle == lastRecord_.idle)
      return;
    rec.seq = 2 * (++publishes_);
    rec.timeNs = now;
    job_.board->publish(r_.id, rec);
    ++r_.stats.boardPublishes;
    if (pushes) {
      const std::uint64_t peers = job_.ranks.size() - 1;
      r_.boardMessages += 4 * peers;
      r_.boardBytes += static_cast<std::uint64_t>(peers * (kRecordBytes + 2 * 8));
    }
    lastRecord_ = rec;
    everPublished_ = true;
    lastPublishNs_ = now;
  }

  // As CommThread: a better bound found on this rank goes to every rank's board (one accumulate
  // each) at this turn; a bound that has reached this rank's board is taken at this turn.
  void exchangeBound() {
    if (job_.trees.size() < 2) return;
    const double t = nowS();
    int arrived = boardTree_;
    std::erase_if(r_.boundArrivals, [&](const std::pair<double, int>& a) {
      if (a.first > t) return false;
      arrived = std::min(arrived, a.second);
      return true;
    });
    boardTree_ = arrived;
    r_.tree = std::min(r_.tree, boardTree_);
    if (r_.ownTree < publishedTree_ && r_.ownTree < boardTree_) {
      publishedTree_ = r_.ownTree;
      for (auto& q : job_.ranks) {
        if (q.get() == &r_) continue;
        q->boundArrivals.push_back({t + job_.oneWayS(r_, *q, 8), publishedTree_});
        ++r_.boardMessages;
        r_.boardBytes += 8;
      }
      ++boundPublishes_;
    }
  }

  // The latency probe: one timed one-sided read of the next peer's record (a round trip).
  void maybeProbe(std::uint64_t now, std::unique_lock<sg4::Mutex>& lock) {
    const int size = static_cast<int>(job_.ranks.size());
    if (size < 2 || now - lastProbeNs_ < static_cast<std::uint64_t>(o_.latencyProbeInterval.count()) * 1000) return;
    lastProbeNs_ = now;
    probePeer_ = (probePeer_ + 1) % size;
    if (probePeer_ == r_.id) probePeer_ = (probePeer_ + 1) % size;
    const double rtt = 2 * job_.oneWayS(r_, *job_.ranks[static_cast<std::size_t>(probePeer_)], kRecordBytes);
    lock.unlock();
    sg4::this_actor::sleep_for(rtt);
    lock.lock();
    delaySum_[static_cast<std::size_t>(probePeer_)] += rtt * 1e6;
    ++delayN_[static_cast<std::size_t>(probePeer_)];
    r_.policy->onDelaySample(probePeer_, rtt * 1e6);
  }

  void endBurst() {
    if (burst_ == 0) return;
    const std::size_t cell = std::min<std::size_t>(burst_, comm::CommStats::kBurstCells) - 1;
    ++r_.stats.requestBursts[cell];
    burst_ = 0;
  }

 public:
  void finish() {
    const std::size_t n = job_.ranks.size();
    r_.stats.latencyUs.assign(n, 0.0);
    r_.stats.roundTripUs.assign(n, 0.0);
    for (std::size_t p = 0; p < n; ++p) {
      if (delayN_.size() == n && delayN_[p]) r_.stats.latencyUs[p] = delaySum_[p] / static_cast<double>(delayN_[p]);
      if (rttN_.size() == n && rttN_[p]) r_.stats.roundTripUs[p] = rttSum_[p] / static_cast<double>(rttN_[p]);
    }
  }
  std::uint64_t boundPublishes() const { return boundPublishes_; }
  std::uint64_t yields() const { return yields_; }
  void sizePeers() {
    publishedTree_ = boardTree_ = static_cast<int>(job_.trees.size());
    const std::size_t n = job_.ranks.size();
    delaySum_.assign(n, 0), delayN_.assign(n, 0), rttSum_.assign(n, 0), rttN_.assign(n, 0);
  }

 private:
  Job& job_;
  Rank& r_;
  const comm::CommOptions& o_;
  bool inflight_ = false, hungry_ = false, publishSoon_ = false, everPublished_ = false;
  int seedVictim_;    // where our seed request goes: our tree parent, then the rank a refusal named
  bool seeding_;      // it is still to be sent or answered
  std::uint64_t yields_ = 0;  // turns that waited out a worker's time slice
  struct Held {
    int from;
    std::uint64_t id;
    double since;
  };
  std::vector<Held> held_;  // seed requests waiting for spare work
  std::uint64_t sentNs_ = 0, nextStealNs_ = 0, stealRetryUs_ = 0, lastPublishNs_ = 0, lastProbeNs_ = 0;
  std::uint64_t nextRefreshNs_ = 0, publishes_ = 0, lastRequestNs_ = 0;
  std::size_t burst_ = 0;
  int probePeer_ = 0;
  int publishedTree_ = 0, boardTree_ = 0;  // incumbent replay: the tree last published; the board's
  std::uint64_t boundPublishes_ = 0;
  comm::RankRecord lastRecord_;
  std::vector<double> delaySum_, rttSum_;
  std::vector<std::uint64_t> delayN_, rttN_;
};

struct Running {
  std::unique_ptr<Job> job;
  std::vector<std::unique_ptr<CommActor>> comms;
};

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
    comm::PolicyEnv env{r->id, cfg.ranks, cfg.workers, cfg.seed, r->view.get()};
    r->policy = registry.make(cfg.policy, env, cfg.policyParams);
  }
  // The seed: the tasks pushed before any task ran start on rank 0, as the root does (in the
  // weakest tree: no rank has an incumbent yet).
  const int weakest = static_cast<int>(job.trees.size()) - 1;
  const auto& seedTree = job.trees.back();
  for (std::uint64_t id = 0; id < seedTree.tasks->size(); ++id)
    if (seedTree.task(id).parent == trace::kNoParent) {
      job.ranks[0]->pool.push(pack(weakest, id), seedTree.task(id).depth);
      ++job.outstanding;
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

nlohmann::json report(Running& run) {
  Job& job = *run.job;
  for (auto& c : run.comms) c->finish();
  const double seconds = job.endTime - job.startTime;
  nlohmann::json perRank = nlohmann::json::array();
  double busyAll = 0, idleAll = 0;
  std::uint64_t nodes = 0, boardMsgs = 0, boardBytes = 0;
  nlohmann::json commTotals = nlohmann::json::object(), policyRanks = nlohmann::json::array(),
                 policyTotals = nlohmann::json::object();
  std::vector<const comm::CommStats*> comms;
  for (auto& rp : job.ranks) {
    Rank& r = *rp;
    double busy = 0, idle = 0;
    nlohmann::json workers = nlohmann::json::array();
    for (std::size_t w = 0; w < r.accounts.size(); ++w) {
      r.accounts[w].finish(job.lastTaskEnd * 1e6);
      const double b = r.accounts[w].workTotal(), i = r.accounts[w].idleTotal();
      busy += b, idle += i;
      workers.push_back({{"worker", w}, {"tasks", r.workerTasks[w]}, {"nodes", r.workerNodes[w]}, {"busy_us", b},
                         {"idle_us", i}, {"work_rate", r.accounts[w].workRate()}, {"largest_task_nodes", r.workerLargest[w]}});
    }
    r.stats.commWallSeconds = seconds;
    const nlohmann::json c = comm::toJson(r.stats);
    nlohmann::json pol = r.policy->stats();
    comm::addCounters(commTotals, c);
    comm::addCounters(policyTotals, pol);
    perRank.push_back({{"rank", r.id},
                       {"host", r.host->get_name()},
                       {"nodes", r.nodes},
                       {"busy_us", busy},
                       {"idle_us", idle},
                       {"workers", workers},
                       {"steal_requests", r.stats.stealRequestsSent},
                       {"steals_granted", r.stats.stealsGranted},
                       {"steals_failed", r.stats.stealsRefused},
                       {"board_messages", r.boardMessages},
                       {"board_bytes", r.boardBytes},
                       {"comm", c}});
    pol["policy"] = job.cfg.policy;
    policyRanks.push_back(std::move(pol));
    busyAll += busy, idleAll += idle, nodes += r.nodes;
    boardMsgs += r.boardMessages, boardBytes += r.boardBytes;
    comms.push_back(&r.stats);
  }
  nlohmann::json totals = {{"nodes", nodes},
                           {"busy_us", busyAll},
                           {"idle_us", idleAll},
                           {"steal_requests", commTotals.value("steal_requests_sent", std::uint64_t{0})},
                           {"steals_granted", commTotals.value("steals_granted", std::uint64_t{0})},
                           {"steals_failed", commTotals.value("steals_refused", std::uint64_t{0})},
                           {"board_messages", boardMsgs},
                           {"board_bytes", boardBytes},
                           {"comm", commTotals}};
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
  std::vector<std::uint64_t> startedIn(job.trees.size(), 0);
  for (auto& r : job.ranks) {
    tasksRun += r->finished;
    pruned += r->pruned;
    if (r->split) splits += r->split->splits(), splitTasks += r->split->splitTasks();
    for (std::size_t i = 0; i < startedIn.size(); ++i) startedIn[i] += r->startedIn[i];
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
  out["stats"] = {{"nodes", nodes}, {"tasks", tasksRun}};
  out["options"] = {{"policy", cfg.policy}, {"threads", cfg.workers}, {"seed", cfg.seed}, {"board", comm::boardSchemeName(cfg.board)},
                    {"steal", cfg.comm.stealHalf ? "half" : "one"}, {"seed_tree", cfg.comm.seedArity}, {"seed_redirect", cfg.comm.seedRedirect},
                    {"steal_retry_max_us", cfg.comm.stealRetryMax.count()}, {"constants", cfg.policyParams}};
  out["distributed"] = {{"ranks", cfg.ranks},
                        {"herding", comm::herding(comms)},
                        {"board", comm::boardSummary(comms)},
                        {"policy_name", cfg.policy},
                        {"per_rank", perRank},
                        {"totals", totals},
                        {"policy", {{"policy", cfg.policy}, {"ranks", policyRanks}, {"totals", policyTotals}}}};
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
                         {"tasks_pruned", pruned},
                         {"bound_publishes", publishes}}},
                       {"split",
                        {{"mode", cfg.splitOnHunger ? "hunger" : "tree"},
                         {"check_nodes", cfg.splitCheckNodes},
                         {"cost_ns", cfg.splitCostNs},
                         {"level", cfg.splitLevel},
                         {"remote", cfg.splitDirect ? "direct" : "pool"},
                         {"splits", splits},
                         {"split_tasks", splitTasks}}},
                       {"trace_cpu_s", 1e-9 * static_cast<double>(job.trace->totalCpuNs())}};
  return out;
}

}  // namespace

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
