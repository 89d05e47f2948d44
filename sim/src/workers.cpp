#include "workers.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace jackdaw::sim::detail {

// A task into r's pool: a new one (counted until it finishes), or one stolen from another rank.
void pushTask(Job& job, Rank& r, std::uint64_t packed, bool isNew) {
  r.pool.push({packed, static_cast<int>(job.task(packed).depth)});
  if (isNew) ++job.outstanding, ++r.created;
  r.workAvailable->notify_one();
}

// A child reached its spawn point on worker w: into the rank's pool, or under hunger splitting
// onto w's private stack (counted until it finishes, like any new task).
void spawnTask(Job& job, Rank& r, int w, std::uint64_t packed) {
  if (!r.split) return pushTask(job, r, packed);
  r.split->push(w, packed, job.task(packed).depth);
  ++job.outstanding, ++r.created;
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
    const bool remote = r.remoteHunger;
    const auto tasks = splitFor(job, r, r.split->donor(), remote);
    r.remoteHunger = false;  // as the engine's push()
    for (std::uint64_t t : tasks) pushTask(job, r, t, false);
    if (remote && !tasks.empty()) r.wake();  // as the engine's splitForThief(): a held request can be answered
  }
}

// The rank's bound rose to tree `t` by its own find. As the runtime's offerBound, a better bound
// wakes the comm actor, which publishes it at the turn that follows.
void foundBetter(Job& job, Rank& r, int t) {
  if (t < r.ownTree) {
    r.wake();
    auto& at = r.foundAt[static_cast<std::size_t>(t)];
    if (at < 0) at = nowS() - job.startTime;
  }
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
  // --task-jitter: this run of the task is this much slower or faster than recorded; --task-cpu-scale
  // scales every task alike.
  double noise = job.cfg.taskCpuScale;
  if (const double sigma = job.cfg.taskJitter; sigma > 0)
    noise *= std::exp(sigma * std::normal_distribution<double>(0.0, 1.0)(r.jitter) - sigma * sigma / 2);
  double pos = 0;             // nodes into the task, in tree `tr`'s version of it
  std::uint64_t visited = 0;  // nodes run, across versions
  const bool replaying = job.trees.size() > 1;
  std::vector<std::uint64_t> released;  // replaying: children released so far (packed)
  for (;;) {
    const Tree& t = job.trees[static_cast<std::size_t>(tr)];
    const auto& rec = t.task(id);
    const double end = static_cast<double>(rec.nodes);
    const double nsPerNode = rec.nodes ? noise * static_cast<double>(rec.cpuNs) / end : 0.0;
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
    if (auto& at = r.ranAt[static_cast<std::size_t>(tr)]; at < 0) at = nowS() - job.startTime;
    if (rec.nodes == 0) execNs(noise * static_cast<double>(rec.cpuNs));
    int better = tr;
    for (;;) {
      for (; kid != kids->end() && static_cast<double>(t.task(*kid).afterNodes) <= pos; ++kid) {
        if (replaying) released.push_back(pack(tr, *kid));
        spawnTask(job, r, w, pack(tr, *kid));
      }
      for (; imp < impEnd && static_cast<double>(t.improvements[imp].afterNodes) <= pos; ++imp)
        foundBetter(job, r, job.treeFor(t.improvements[imp].objective));
      better = std::min(tr, r.tree);
      if (pos >= end || better < tr) break;
      // Run to the next event: a child's spawn point, an improvement, the end, or a bound check.
      double next = end;
      if (kid != kids->end()) next = std::min(next, static_cast<double>(t.task(*kid).afterNodes));
      if (imp < impEnd) next = std::min(next, static_cast<double>(t.improvements[imp].afterNodes));
      if (job.trees.size() > 1) next = std::min(next, pos + std::max(1.0, kBoundCheckNs / std::max(nsPerNode, 1e-9)));
      execNs((next - pos) * nsPerNode + (r.split ? r.split->takeDebt(w) : 0.0));
      const auto stretch = static_cast<std::uint64_t>(std::llround(next)) - static_cast<std::uint64_t>(std::llround(pos));
      visited += stretch;
      r.nodesIn[static_cast<std::size_t>(tr)] += stretch;
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
      id = r.pool.pop()->id;
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
    // --slow-as spin: the apps' SlowRank, busy work for (slowdown - 1) x the task's time after it.
    if (r.spin > 0) execNs(r.spin * (nowS() - began) * 1e9 * job.cfg.platform.coreSpeed);
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
// wakes the victim's comm actor at once, provided a worker is busy to poll the bell; under hunger
// splitting that worker, finding the pool empty, splits for the thief first (the engine's
// ParallelSearch::answerBell). Replies and unrung requests wait for the comm actor's next look,
// as in the runtime.
void receiver(Job& job, Rank& r) {
  for (;;) {
    Msg* m = r.box->get<Msg>();
    r.inbox.push_back(m);
    if (m->kind == Msg::Request && job.cfg.comm.doorbell && r.running > 0) {
      if (r.split && r.pool.size() == 0 && !r.remoteHunger) {
        r.remoteHunger = true;
        r.hungerChanged();
      }
      r.wake();
    }
  }
}

}  // namespace jackdaw::sim::detail
