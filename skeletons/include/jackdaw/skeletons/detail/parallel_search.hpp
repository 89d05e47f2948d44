// Shared machinery of the multi-threaded skeletons: a pool of tasks, one TBB "token" per pushed
// task, one NodeRules per worker, and the merge of the workers' results.
//
// Scheduling: push(task) puts the task in the pool and spawns a token; a token takes one task
// (pop(): the deepest, or the best priority) and runs it; a token that finds the pool empty
// (a thief took its task) just returns. oneTBB sleeps/wakes workers; termination is the
// task group's wait (or the runtime's hold()/release() when something outside decides).
//
// Failure: an exception from model code in a task (or the seed) is caught on its worker; the
// search stops with StopReason::Failed (observers hear it, so a driver can stop other ranks),
// every remaining task is dropped and counted finished, and run() then throws SearchFailed with
// the model's message. Nothing waits forever on a task that never ended.
//
// A skeleton builds a ParallelSearch, sets its body, and hands it with a seed to a launch: the
// default LocalLaunch runs it on this process; a distributed launch (jackdaw/distributed/) wraps
// the same built search from outside. What such a driver may use, all from any thread:
//   void inject(TaskT t)                     hand in a task from elsewhere
//   std::optional<TaskT> stealShallowest()   take the shallowest task for a remote thief
//   tasksCreated(), tasksFinished()          monotone counters (pushed / run to the end)
//   pool().size(), runtime().idleWorkers(), runtime().runningTasks(), runtime().meanWorkRate()
//   observe(SearchObserver*)                 events: pool ran dry, stop, better incumbent, …, and
//                                            a pulse every few visited nodes (pulseEvery())
//   watchBell(cell)                          a counter thieves elsewhere add to, read at the
//                                            hunger checks (skeletons that split for thieves)
//   wantsTaskTree(), setTaskSizer(f)         an observer records the task tree: f(task) gives
//                                            each spawned task's size on the wire and a hash of
//                                            it (a driver's); freezeBound() for a recording
//   runtime().hold() before run(), runtime().release() when it decides the search is over.
//   keepUnexplored() before run(), takeUnexplored() after it: the work an interruption cut short
//   (for a checkpoint), and pushAll(tasks) as the seed to continue it.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "jackdaw/core/depth_first.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/result.hpp"
#include "jackdaw/core/search_observer.hpp"
#include "jackdaw/core/worker_report.hpp"
#include "jackdaw/core/worker_runtime.hpp"
#include "jackdaw/skeletons/detail/grain.hpp"
#include "jackdaw/skeletons/detail/parallel_options.hpp"

namespace jackdaw::detail {

template <class Node>
struct Task {
  Node node;
  int depth = 0;
  std::uint64_t priority = 0;  // PriorityPool only: smaller runs first
  std::uint64_t id = 0;        // set by push(): 0, 1, 2, ... in creation order on this rank (not sent on the wire)
};

// A pool with one queue per worker (WorkerQueues): pushes name the worker, takes the token's origin.
template <class P, class Task>
concept PerWorkerPool = requires(P& p, Task t) {
  p.push(0, std::move(t));
  { p.take(0, 0) } -> std::same_as<std::optional<Task>>;
};

template <SearchModel M, SearchKind K, class Pool>
class ParallelSearch {
 public:
  using T = SearchTypes<M, K>;
  using Model = M;
  using Node = typename T::Node;
  using TaskT = Task<Node>;
  using Result = SearchResult<M, K>;

  struct alignas(64) Slot {
    Slot(const typename T::Space& s, const typename T::Params& p, typename T::IncumbentT* inc, StopFlag& stop)
        : rules(s, p, inc, stop) {}
    NodeRules<M, K> rules;
    DfsStack<M, K> stack;                    // every task's frames on this worker (kept between tasks)
    std::vector<std::pair<Node, int>> kept;  // unexplored work, when keepUnexplored() is on
    std::uint64_t largestTask = 0;           // the most nodes one task visited on this worker
    AutoGrain grain;                         // this worker's setting under an automatic grain (grain.hpp)
    // The task running on this worker and its node count when it began (kept only while an
    // observer records the task tree: the parent and spawn point of what it pushes).
    std::uint64_t runningTask = kNoParentTask;
    std::uint64_t runningFrom = 0;
    // This worker's pulse (the rules' setPulse): the observers' every observersEvery visits, and
    // the running task's own (its skeleton's split rule, TaskPulse) every task.every. Each counts
    // its own visits; the rules are armed for the nearer of the two (pulseSlot).
    struct OwnPulse {
      void (*fn)(void* ctx, int depth) = nullptr;
      void* ctx = nullptr;
      unsigned every = 0, left = 0;
    };
    ParallelSearch* search = nullptr;
    unsigned observersEvery = 0, observersLeft = 0;
    OwnPulse task;
    unsigned armed = 0;  // what the rules' countdown started from
  };
  // Runs one task on the calling worker's slot.
  using Body = std::function<void(Slot&, TaskT&&)>;
  // A task's size on the wire and a hash of its bytes (installed by a distributed driver; the
  // engine knows no encoding).
  struct Wire {
    std::uint32_t bytes = 0;
    std::uint64_t key = 0;
  };
  using Sizer = std::function<Wire(const TaskT&)>;

  ParallelSearch(const typename T::Space& space, const typename T::Params& params, StopFlag& stop,
                 const RuntimeOptions& ro)
      : space_(space), stop_(stop), incumbent_(params.initialBound), rt_(ro), pool_(makePool(rt_.slots())) {
    if constexpr (isDecision<K>) {
      if (!params.expectedObjective) throw std::invalid_argument("decision search needs params.expectedObjective");
      if (params.initialBound)
        throw std::invalid_argument("decision search: leave params.initialBound unset (the goal is params.expectedObjective)");
    }
    for (int i = 0; i < rt_.slots(); ++i) {
      slots_.push_back(std::make_unique<Slot>(space, params, &incumbent_, stop));
      slots_.back()->search = this;
    }
  }

  WorkerRuntime& runtime() { return rt_; }
  Pool& pool() { return pool_; }
  Slot& self() { return *slots_[static_cast<std::size_t>(rt_.currentWorker())]; }
  typename T::IncumbentT& incumbent() { return incumbent_; }
  // A bound from elsewhere (another rank): tightens pruning, and generators see it (IncumbentView).
  void offerBound(const typename T::Obj& o) { incumbent_.offerBound(o); }
  StopFlag& stopFlag() { return stop_; }
  // Before run(): a solution carried over from saved work (a checkpoint). It becomes the incumbent,
  // which the model's generators read through their IncumbentView as in the run that found it.
  void adoptIncumbent(const Node& n, const typename T::Obj& o) { incumbent_.offerNode(n, o); }

  // While no task runs (before run(), or after it): add / remove a listener for the search's events.
  void observe(SearchObserver* o) {
    if (!o) return;
    observers_.push_back(o);
    incumbent_.setListener([this](const typename T::Obj& obj) {
      const int w = rt_.currentWorker();
      if (!incumbent_.frozen())
        for (SearchObserver* x : observers_) x->incumbentImproved(w);
      noteSolution(w, obj);
    });
    if (const unsigned every = o->pulseEvery()) {
      pulsed_.push_back({o, every});
      applyPulse();
    }
    if (o->wantsTaskTree()) tree_.push_back(o);
  }
  void forget(SearchObserver* o) {
    std::erase(observers_, o);
    std::erase(tree_, o);
    if (observers_.empty()) incumbent_.setListener(nullptr);
    if (std::erase_if(pulsed_, [o](const auto& p) { return p.first == o; }) > 0) applyPulse();
  }
  // Some attached observer records the task tree (a driver then installs a sizer).
  bool wantsTaskTree() const { return !tree_.empty(); }
  // While no task runs: how spawned tasks are sized for the tree's observers (none: size 0).
  void setTaskSizer(Sizer f) { sizer_ = std::move(f); }
  // Before run(): the bound stays at params.initialBound (trace recording; ParallelOptions::frozenBound).
  void freezeBound() { incumbent_.freeze(); }
  // How every task is run; set before the first task can arrive (before run(), or before a
  // driver injects).
  void setBody(Body body) { body_ = std::move(body); }

  // From the worker running a task on `slot`, at its start and end: the task's own pulse,
  // fn(ctx, depth) every `every` visits of the task (every > 0; the first after `every`), beside
  // the observers' (see Slot). A skeleton's split rule runs there, out of the engine's loop.
  // Out of line: a model's hot function (runHot) holds the task, and needs none of this.
  [[gnu::noinline]] void beginTaskPulse(Slot& slot, void (*fn)(void*, int), void* ctx, unsigned every) {
    syncPulse(slot);
    slot.task = {fn, ctx, every, every};
    armPulse(slot);
  }
  [[gnu::noinline]] void endTaskPulse(Slot& slot) {
    syncPulse(slot);
    slot.task = {};
    armPulse(slot);
  }

  // From a worker: a new task, and a token that will run it (or a sibling) on some worker.
  // Out of line (as pushAll): a model's hot loop (runHot) is flattened, and the pool and the
  // arena need not be compiled into every instruction-set variant of it.
  // Into the pool's shared part, ordered by level (the depth-first skeletons' spawns and splits:
  // deepest first for a worker, shallowest for a thief, first in first out within a level, so
  // that branch and bound meets the model's order). forThief: into this worker's own queue, for a
  // hungry worker or rank to steal (oldest first), made visible by the next publish().
  [[gnu::noinline]] void push(TaskT t, bool forThief = false) {
    t.id = created_.fetch_add(1, std::memory_order_relaxed);
    if (!tree_.empty()) noteSpawn(t);
    // Read first: the line stays shared (every worker reads it at its hunger checks).
    if (remoteHunger_.load(std::memory_order_relaxed)) remoteHunger_.store(false, std::memory_order_relaxed);
    const int w = rt_.currentWorker();
    poolPush(forThief ? w : -1, std::move(t));
    rt_.spawn([this, w] { token(w); });
    for (SearchObserver* o : observers_) o->tasksCreated(1);
  }
  // From a worker: the tasks it pushed are stealable now.
  void publish() { publishFrom(rt_.currentWorker()); }
  // From a worker: many tasks into the pool first, then their tokens (so a priority pool sees
  // them all before any is taken).
  [[gnu::noinline]] void pushAll(std::vector<TaskT>&& ts) {
    std::uint64_t id = created_.fetch_add(ts.size(), std::memory_order_relaxed);
    for (auto& t : ts) {
      t.id = id++;
      if (!tree_.empty()) noteSpawn(t);
    }
    const int w = rt_.currentWorker();
    for (auto& t : ts) poolPush(-1, std::move(t));
    for (std::size_t i = 0; i < ts.size(); ++i) rt_.spawn([this, w] { token(w); });
    for (SearchObserver* o : observers_) o->tasksCreated(ts.size());
  }
  // From any thread (a driver): a task made elsewhere, through the arena's queue. It was counted
  // as created where it was made.
  void inject(TaskT t) {
    poolPush(-1, std::move(t));
    rt_.inject([this] { token(-1); });
  }
  std::optional<TaskT> stealShallowest() { return pool_.stealShallowest(); }

  std::uint64_t tasksCreated() const { return created_.load(std::memory_order_acquire); }
  std::uint64_t tasksFinished() const { return finished_.load(std::memory_order_acquire); }

  // Workers that could take work while nothing waits in the pool (stack stealing asks this at
  // every node: two relaxed loads).
  bool hungry() const {
    return (rt_.idleWorkers() > 0 || remoteHunger_.load(std::memory_order_relaxed)) && pool_.size() == 0;
  }
  // A remote thief found the pool empty: let a busy worker split (stack stealing answers it).
  void requestSplit() { remoteHunger_.store(true, std::memory_order_relaxed); }

  // A doorbell: a counter that other ranks' thieves add to as they send a steal request (a
  // distributed driver's board cell), read at every hunger check of a skeleton that splits for
  // thieves. Before run(), and only with setSplitsForThieves(true).
  void watchBell(std::uint64_t* cell) {
    bell_ = cell;
    bellSeen_.store(std::atomic_ref<std::uint64_t>(*cell).load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
  // From a worker's hunger check (one relaxed load): a thief rang since any worker last looked.
  bool bellRang() const {
    return bell_ && std::atomic_ref<std::uint64_t>(*bell_).load(std::memory_order_relaxed) !=
                        bellSeen_.load(std::memory_order_relaxed);
  }
  // Answers a ring, from a worker's hunger check after bellRang(). True: the pool is empty, so the
  // thief's request would find nothing, and this worker is to split for it now (requestSplit is
  // set: the split wakes the driver through splitForThief) rather than after the driver has read
  // the request; if that split gives nothing, call bellUnanswered(). False: the driver was told to
  // hand over what the pool holds (bellRang observers), or another worker answered the ring.
  [[gnu::noinline, gnu::cold]] bool answerBell() {
    const std::uint64_t now = std::atomic_ref<std::uint64_t>(*bell_).load(std::memory_order_relaxed);
    if (bellSeen_.exchange(now, std::memory_order_relaxed) == now) return false;
    if (pool_.size() == 0) {
      requestSplit();
      return true;
    }
    bellUnanswered();
    return false;
  }
  // The driver reads the request now (and may hold it for a later split).
  [[gnu::noinline, gnu::cold]] void bellUnanswered() {
    for (SearchObserver* o : observers_) o->bellRang();
  }
  bool remoteHungry() const { return remoteHunger_.load(std::memory_order_relaxed); }
  // From a worker, after it split for a remote thief: the driver answers a request held for it.
  void splitForThief() {
    for (SearchObserver* o : observers_) o->splitForThief();
  }
  // Whether the skeleton's workers answer requestSplit (the hunger rule, stack stealing): then a
  // remote thief's request may wait for the split (comm::CommOptions::stealHoldMax).
  void setSplitsForThieves(bool on) { splitsForThieves_ = on; }
  bool splitsForThieves() const { return splitsForThieves_; }

  // Run on this process: `seed` runs first on a worker (it pushes the first tasks), then every
  // task through the body, until none is left (and release(), if the runtime is held). Throws
  // SearchFailed if model code threw.
  template <class Seed>
  Result run(Seed&& seed) {
    const auto t0 = std::chrono::steady_clock::now();
    rt_.runAndWait([&] { runSeed(seed); });
    rt_.finishAccounts();
    if (const auto e = error()) throw SearchFailed(modelThrew(e));
    return collect(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }

  // The seed, with its failure caught like a task's (a driver calls this instead of seed()).
  template <class Seed>
  void runSeed(Seed& seed) {
    try {
      seed();
    } catch (...) {
      fail(std::current_exception());
    }
  }

  // Model code threw: remember the first exception and stop the search everywhere.
  void fail(std::exception_ptr e) {
    {
      std::lock_guard lock(errorMutex_);
      if (!error_) error_ = e;
    }
    stop_.request(StopReason::Failed);
    noteStop();
  }
  std::exception_ptr error() const {
    std::lock_guard lock(errorMutex_);
    return error_;
  }

  // Before run(): a stop then keeps the work it cuts short instead of dropping it. Every queued
  // task still passes through a token after the stop and is kept whole, every worker's open stack
  // is kept as tasks, so after run() takeUnexplored() holds everything not yet visited.
  void keepUnexplored() {
    keeping_ = true;
    for (auto& s : slots_) s->rules.unexplored = &s->kept;
  }
  // After run(): the kept work as tasks (each runs as a subtree root that was never visited), in
  // the order this search would have taken them, so that pushAll() continues in that order: first
  // the workers' open stacks (a worker finishes its own before it takes from the pool), then the
  // queued tasks in creation order (the pool's order within a level, whichever token met them).
  std::vector<TaskT> takeUnexplored() {
    std::vector<TaskT> out;
    for (auto& s : slots_) {
      for (auto& [node, depth] : s->kept) out.push_back({std::move(node), depth, 0});
      s->kept.clear();
    }
    std::lock_guard lock(keptMutex_);
    std::stable_sort(keptQueued_.begin(), keptQueued_.end(), [](const TaskT& a, const TaskT& b) { return a.id < b.id; });
    for (auto& t : keptQueued_) out.push_back(std::move(t));
    keptQueued_.clear();
    return out;
  }

  std::vector<const SearchStats*> workerStats() const {
    std::vector<const SearchStats*> out;
    for (const auto& slot : slots_) out.push_back(&slot->rules.stats);
    return out;
  }

  std::vector<WorkerReport> reports() {
    std::vector<WorkerReport> out;
    for (int i = 0; i < rt_.slots(); ++i) {
      const WorkerAccount& a = rt_.account(i);
      const Slot& slot = *slots_[static_cast<std::size_t>(i)];
      out.push_back({i, a.tasks(), slot.rules.stats, a.workTotal(), a.idleTotal(), a.workRate(), slot.largestTask,
                     slot.grain.value, slot.grain.changes});
    }
    return out;
  }

  // This process's share: the workers' enumerators and counters, the incumbent, the stop reason.
  // An interruption that cut nothing short (it came after the last node) leaves the result whole.
  Result collect(double seconds) {
    Result r;
    bool truncated = false;
    for (auto& s : slots_) {
      r.enumerator.combine(s->rules.acc);
      r.stats += s->rules.stats;
      truncated |= s->rules.truncated;
    }
    {
      std::lock_guard lock(keptMutex_);
      truncated |= !keptQueued_.empty();
    }
    r.best = incumbent_.node();
    r.objective = incumbent_.nodeObjective();
    r.stop = reportedStop(stop_.reason(), truncated);
    r.seconds = seconds;
    return r;
  }

 private:
  static Pool makePool(int workers) {
    if constexpr (std::is_constructible_v<Pool, int>) return Pool(workers);
    else return Pool();
  }
  void poolPush(int w, TaskT&& t) {
    if constexpr (PerWorkerPool<Pool, TaskT>) pool_.push(w, std::move(t));
    else pool_.push(std::move(t));
  }
  void publishFrom([[maybe_unused]] int w) {
    if constexpr (PerWorkerPool<Pool, TaskT>) pool_.publish(w);
  }

  // Runs one queued task on the calling worker (a token spawned by worker `origin`, -1 from outside):
  // with per-worker queues its own newest, else origin's oldest, else any; else the deepest.
  void token([[maybe_unused]] int origin) {
    std::optional<TaskT> t;
    if constexpr (PerWorkerPool<Pool, TaskT>) t = pool_.take(rt_.currentWorker(), origin);
    else t = pool_.pop();
    if (!t) return;
    const bool observed = !observers_.empty();  // with nobody listening: no clock reads, no calls
    if (keeping_ && stop_.requested()) {
      // Kept whole, with its creation number: the saved work keeps the pool's order.
      {
        std::lock_guard lock(keptMutex_);
        keptQueued_.push_back(std::move(*t));
      }
      finished_.fetch_add(1, std::memory_order_acq_rel);
      if (observed && pool_.size() == 0)
        for (SearchObserver* o : observers_) o->poolRanDry();
      return;
    }
    const bool tree = !tree_.empty();            // only a tree recorder asks for the CPU clock
    Slot* running = nullptr;
    try {
      WorkerRuntime::TaskScope scope(rt_);
      TaskSpan span;
      std::uint64_t cpu0 = 0;
      if (observed) span = {scope.worker(), t->depth, std::chrono::steady_clock::now(), 0.0, 0, t->id, 0};
      Slot& slot = *slots_[static_cast<std::size_t>(scope.worker())];
      const std::uint64_t before = slot.rules.stats.nodes;
      if (tree) {
        running = &slot;
        slot.runningTask = t->id;
        slot.runningFrom = before;
        cpu0 = threadCpuNs();
      }
      body_(slot, std::move(*t));
      const std::uint64_t nodes = slot.rules.stats.nodes - before;
      slot.largestTask = std::max(slot.largestTask, nodes);
      if (observed) {
        if (tree) {
          span.cpuNs = threadCpuNs() - cpu0;
          slot.runningTask = kNoParentTask;
          running = nullptr;
        }
        span.nodes = nodes;
        span.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - span.start).count();
        for (SearchObserver* o : observers_) o->taskFinished(span);
      }
    } catch (...) {
      if (running) running->runningTask = kNoParentTask;
      fail(std::current_exception());  // the task ends here, and counts as finished below
    }
    publishFrom(rt_.currentWorker());  // whatever the body pushed (even if it threw) is in sight
    // A stop this task caused (a solution, a failure) is told before the task counts as
    // finished, so a driver has it in hand before it can decide the search is over.
    if (observed) noteStop();
    // After the body: the tasks it pushed were counted first, so created == finished is never
    // seen too early.
    finished_.fetch_add(1, std::memory_order_acq_rel);
    if (observed && pool_.size() == 0)
      for (SearchObserver* o : observers_) o->poolRanDry();
  }

  // A new task, told to the tree's observers: its parent is the task running on this worker, if any.
  void noteSpawn(const TaskT& t) {
    TaskSpawn e;
    e.id = t.id;
    e.depth = t.depth;
    e.worker = rt_.currentWorker();
    if (e.worker >= 0) {
      const Slot& slot = *slots_[static_cast<std::size_t>(e.worker)];
      e.parent = slot.runningTask;
      if (e.parent != kNoParentTask) e.afterNodes = slot.rules.stats.nodes - slot.runningFrom;
    }
    if (sizer_) {
      const Wire wire = sizer_(t);
      e.bytes = wire.bytes;
      e.key = wire.key;
    }
    for (SearchObserver* o : tree_) o->taskSpawned(e);
  }

  // A better solution (under a frozen bound: better than it): its objective and, while the tree is
  // recorded, which task found it and how far in.
  void noteSolution(int w, const typename T::Obj& obj) {
    if constexpr (std::is_arithmetic_v<typename T::Obj>) {
      SolutionFound f;
      f.worker = w;
      f.objective = static_cast<double>(obj);
      if (w >= 0) {
        const Slot& slot = *slots_[static_cast<std::size_t>(w)];
        f.task = slot.runningTask;
        if (f.task != kNoParentTask) f.afterNodes = slot.rules.stats.nodes - slot.runningFrom;
      }
      for (SearchObserver* o : observers_) o->solutionFound(f);
    }
  }

  // Every worker pulses its observers at the shortest period any attached observer asked for
  // (none: no pulse, and visit() pays only its null check). The slots exist from construction on.
  void applyPulse() {
    unsigned every = 0;
    for (const auto& p : pulsed_) every = every == 0 ? p.second : std::min(every, p.second);
    for (auto& s : slots_) {
      s->observersEvery = s->observersLeft = every;  // a countdown starts full
      armPulse(*s);
    }
  }
  // The visits since the rules' countdown was armed, taken off both countdowns.
  static void syncPulse(Slot& slot) {
    const unsigned done = slot.armed - slot.rules.pulseLeft();
    if (slot.observersEvery) slot.observersLeft -= done;
    if (slot.task.fn) slot.task.left -= done;
    slot.armed -= done;
  }
  // The visits until the nearer of the two pulses (0: neither is on); each countdown is at least 1.
  static unsigned nextPulse(Slot& slot) {
    unsigned next = 0;
    if (slot.observersEvery) next = slot.observersLeft;
    if (slot.task.fn) next = next == 0 ? slot.task.left : std::min(next, slot.task.left);
    return slot.armed = next;
  }
  // With no observer pulsing, the task's pulse is called straight from the rules.
  static void armPulse(Slot& slot) {
    const unsigned next = nextPulse(slot);
    if (slot.task.fn && !slot.observersEvery) slot.rules.setPulse(slot.task.fn, slot.task.ctx, next);
    else slot.rules.setPulse(&ParallelSearch::pulseSlot, &slot, next);
  }
  static void pulseSlot(void* p, int depth) {
    Slot& slot = *static_cast<Slot*>(p);
    const unsigned done = slot.armed;
    if (slot.observersEvery && (slot.observersLeft -= done) == 0) {
      slot.observersLeft = slot.observersEvery;
      for (const auto& o : slot.search->pulsed_) o.first->pulse();
    }
    if (slot.task.fn && (slot.task.left -= done) == 0) {
      slot.task.left = slot.task.every;
      slot.task.fn(slot.task.ctx, depth);
    }
    armPulse(slot);
  }

  // Tells the observers each time the stop reason rises (interrupted, then found, then failed).
  void noteStop() {
    const int r = static_cast<int>(stop_.reason());
    int seen = stopSeen_.load(std::memory_order_acquire);
    while (r > seen) {
      if (stopSeen_.compare_exchange_weak(seen, r, std::memory_order_acq_rel)) {
        const int w = rt_.currentWorker();
        for (SearchObserver* o : observers_) o->stopRequested(static_cast<StopReason>(r), w);
        return;
      }
    }
  }

  const typename T::Space& space_;
  StopFlag& stop_;
  typename T::IncumbentT incumbent_;
  WorkerRuntime rt_;
  Pool pool_;
  std::vector<std::unique_ptr<Slot>> slots_;
  Body body_;
  std::vector<SearchObserver*> observers_;
  std::vector<std::pair<SearchObserver*, unsigned>> pulsed_;  // those wanting a pulse, with their period
  std::vector<SearchObserver*> tree_;  // those recording the task tree
  Sizer sizer_;
  alignas(64) std::atomic<std::uint64_t> created_{0};
  alignas(64) std::atomic<std::uint64_t> finished_{0};
  std::atomic<bool> remoteHunger_{false};
  bool splitsForThieves_ = false;
  std::uint64_t* bell_ = nullptr;           // watchBell
  std::atomic<std::uint64_t> bellSeen_{0};  // the bell's count when a worker last answered it
  std::atomic<int> stopSeen_{0};  // the highest stop reason the observers were told
  mutable std::mutex errorMutex_;
  std::exception_ptr error_;
  bool keeping_ = false;         // keepUnexplored(): a stop keeps the work it cuts short
  mutable std::mutex keptMutex_;
  std::vector<TaskT> keptQueued_;  // queued tasks a stop met, kept whole by the tokens
};

// Runs a built search on this process (the default launch of every parallel skeleton).
struct LocalLaunch {
  template <class Search, class Seed>
  typename Search::Result operator()(Search& s, Seed&& seed) const {
    return s.run(std::forward<Seed>(seed));
  }
};

// Run a parallel skeleton with its optional outputs filled in, through `launch`.
template <class Search, class Body, class Seed, class Launch>
auto runParallel(Search& s, const ParallelOptions& o, Body&& body, Seed&& seed, Launch&& launch) {
  s.setBody(std::forward<Body>(body));
  for (SearchObserver* x : o.observers) s.observe(x);
  if (o.frozenBound) s.freezeBound();
  LiveNodes::IncumbentReader best;
  if constexpr (usesIncumbent<typename Search::T::Kind>)
    if (o.live) best = LiveNodes::reader(s.incumbent(), isDecision<typename Search::T::Kind>);
  LiveNodes::Registration counted(o.live, s.workerStats(), std::move(best));
  auto r = launch(s, std::forward<Seed>(seed));
  if (o.workers) *o.workers = s.reports();
  return r;
}

}  // namespace jackdaw::detail
