// Shared machinery of the multi-threaded skeletons: a pool of tasks, one TBB "token" per pushed
// task, one NodeRules per worker, and the merge of the workers' results.
//
// Scheduling: push(task) puts the task in the pool and spawns a token; a token takes one task
// (pop(): the deepest, or the best priority) and runs it; a token that finds the pool empty
// (a thief took its task) just returns. oneTBB sleeps/wakes workers; termination is the
// task group's wait (or the runtime's hold()/release() when a distributed stage decides).
//
// Seam for the MPI stage (the comm thread is outside the arena):
//   void inject(TaskT t)                     hand in a task from another rank (any thread)
//   std::optional<TaskT> stealShallowest()   take the shallowest task for a remote thief
//   Pool& pool(); WorkerRuntime& runtime()   pool().size(), runtime().idleWorkers(),
//                                            runtime().runningTasks(), runtime().meanWorkRate()
//   std::size_t outstandingTasks()           pushed or injected, neither finished nor stolen away:
//                                            0 means this process is quiescent
//   runtime().hold() before run(), runtime().release() when the termination wave says done.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "jackdaw/core/depth_first.hpp"
#include "jackdaw/core/result.hpp"
#include "jackdaw/core/worker_report.hpp"
#include "jackdaw/core/worker_runtime.hpp"
#include "jackdaw/skeletons/detail/distributed.hpp"
#include "jackdaw/skeletons/detail/parallel_options.hpp"

namespace jackdaw::detail {

template <class Node>
struct Task {
  Node node;
  int depth = 0;
  std::uint64_t priority = 0;  // PriorityPool only: smaller runs first
};

template <SearchModel M, SearchKind K, class Pool>
class ParallelSearch {
 public:
  using T = SearchTypes<M, K>;
  using Node = typename T::Node;
  using TaskT = Task<Node>;
  using Result = SearchResult<M, K>;

  struct alignas(64) Slot {
    Slot(const typename T::Space& s, const typename T::Params& p, typename T::IncumbentT* inc, StopFlag& stop)
        : rules(s, p, inc, stop) {}
    NodeRules<M, K> rules;
  };
  // Runs one task on the calling worker's slot.
  using Body = std::function<void(Slot&, TaskT&&)>;

  ParallelSearch(const typename T::Space& space, const typename T::Params& params, StopFlag& stop,
                 const RuntimeOptions& ro)
      : params_(params), stop_(stop), incumbent_(params.initialBound), rt_(ro) {
    if constexpr (isDecision<K>) {
      if (!params.expectedObjective) throw std::invalid_argument("decision search needs params.expectedObjective");
    }
    for (int i = 0; i < rt_.slots(); ++i) slots_.push_back(std::make_unique<Slot>(space, params, &incumbent_, stop));
  }

  WorkerRuntime& runtime() { return rt_; }
  Pool& pool() { return pool_; }
  const typename T::Params& params() const { return params_; }
  Slot& self() { return *slots_[static_cast<std::size_t>(rt_.currentWorker())]; }

  // From a worker: a new task, and a token that will run it (or a sibling) on some worker.
  void push(TaskT t) {
    outstanding_.fetch_add(1, std::memory_order_relaxed);
    created_.fetch_add(1, std::memory_order_relaxed);
    remoteHunger_.store(false, std::memory_order_relaxed);
    pool_.push(std::move(t));
    rt_.spawn([this] { token(); });
  }
  // From a worker: many tasks into the pool first, then their tokens (so a priority pool sees
  // them all before any is taken).
  void pushAll(std::vector<TaskT>&& ts) {
    outstanding_.fetch_add(ts.size(), std::memory_order_relaxed);
    created_.fetch_add(ts.size(), std::memory_order_relaxed);
    for (auto& t : ts) pool_.push(std::move(t));
    for (std::size_t i = 0; i < ts.size(); ++i) rt_.spawn([this] { token(); });
  }
  // From any thread (a comm thread): the same, through the arena's queue.
  void inject(TaskT t) {
    outstanding_.fetch_add(1, std::memory_order_relaxed);
    pool_.push(std::move(t));
    rt_.inject([this] { token(); });
  }
  std::optional<TaskT> stealShallowest() {
    auto t = pool_.stealShallowest();
    if (t) outstanding_.fetch_sub(1, std::memory_order_acq_rel);
    return t;
  }
  std::size_t outstandingTasks() const { return outstanding_.load(std::memory_order_acquire); }

  // Workers that could take work while nothing waits in the pool (stack stealing asks this at
  // every node: two relaxed loads).
  bool hungry() const {
    return (rt_.idleWorkers() > 0 || remoteHunger_.load(std::memory_order_relaxed)) && pool_.size() == 0;
  }
  // A remote thief found the pool empty: let a busy worker split (stack stealing answers it).
  void requestSplit() { remoteHunger_.store(true, std::memory_order_relaxed); }

  // --- for the distributed stage (detail/distributed.hpp) ---
  typename T::IncumbentT& incumbent() { return incumbent_; }
  StopFlag& stopFlag() { return stop_; }
  std::uint64_t tasksCreated() const { return created_.load(std::memory_order_acquire); }
  std::uint64_t tasksFinished() const { return finished_.load(std::memory_order_acquire); }
  void attachComm(comm::CommThread* c) { comm_.store(c, std::memory_order_release); }
  // Spanning ranks (null: this process only) and this rank's slowdown factor (contention tests).
  void setDistributed(const DistributedOptions* d, double slowdown) {
    dist_ = d;
    slowdown_ = slowdown;
  }

  // How every task is run; set before the first task can arrive (before run(), or before a comm
  // thread injects).
  void setBody(Body body) { body_ = std::move(body); }

  // Run the search: `seed` runs first on a worker (it pushes the first tasks), then every task
  // through the body, until none is left (and release(), if the runtime is held).
  template <class Seed>
  SearchResult<M, K> run(Seed&& seed) {
    if (dist_ && dist_->size > 1) return runDistributed(*this, seed, *dist_);
    const auto t0 = std::chrono::steady_clock::now();
    rt_.runAndWait([&] { seed(); });
    rt_.finishAccounts();
    return collect(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
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
      out.push_back({i, a.tasks(), slots_[static_cast<std::size_t>(i)]->rules.stats, a.workTotal(), a.idleTotal(),
                     a.workRate()});
    }
    return out;
  }

 private:
  void token() {
    std::optional<TaskT> t = pool_.pop();
    if (!t) return;
    {
      WorkerRuntime::TaskScope scope(rt_);
      const auto start = std::chrono::steady_clock::now();
      body_(*slots_[static_cast<std::size_t>(scope.worker())], std::move(*t));
      if (slowdown_ > 1.0) slowDown(start);
    }
    // After the body: the tasks it pushed were counted first, so 0 is never seen too early.
    finished_.fetch_add(1, std::memory_order_acq_rel);
    outstanding_.fetch_sub(1, std::memory_order_acq_rel);
    if (comm::CommThread* c = comm_.load(std::memory_order_acquire)) {
      if (stop_.requested() && !stopSent_.exchange(true)) c->requestStop(static_cast<int>(stop_.reason()));
      if (pool_.size() == 0) c->wake();  // this rank may need work: let the comm thread steal now
    }
  }

  // A slow rank (--slow-ranks/--slowdown): busy time proportional to the task's own time.
  void slowDown(std::chrono::steady_clock::time_point start) const {
    const auto took = std::chrono::steady_clock::now() - start;
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(took * (slowdown_ - 1.0));
    while (std::chrono::steady_clock::now() < until && !stop_.requested()) {
    }
  }

 public:
  SearchResult<M, K> collect(double seconds) {
    SearchResult<M, K> r;
    for (auto& s : slots_) {
      r.enumerator.combine(s->rules.acc);
      r.stats += s->rules.stats;
    }
    r.best = incumbent_.node();
    r.objective = incumbent_.nodeObjective();
    r.stop = stop_.reason();
    r.seconds = seconds;
    return r;
  }

 private:
  const typename T::Params& params_;
  StopFlag& stop_;
  typename T::IncumbentT incumbent_;
  WorkerRuntime rt_;
  Pool pool_;
  std::vector<std::unique_ptr<Slot>> slots_;
  Body body_;
  alignas(64) std::atomic<std::size_t> outstanding_{0};
  alignas(64) std::atomic<std::uint64_t> created_{0};
  alignas(64) std::atomic<std::uint64_t> finished_{0};
  std::atomic<bool> remoteHunger_{false};
  std::atomic<bool> stopSent_{false};
  std::atomic<comm::CommThread*> comm_{nullptr};
  const DistributedOptions* dist_ = nullptr;
  double slowdown_ = 1.0;
};

// Run a parallel skeleton with its optional outputs filled in.
template <class Search, class Body, class Seed>
auto runParallel(Search& s, const ParallelOptions& o, Body&& body, Seed&& seed) {
  s.setBody(std::forward<Body>(body));
  s.setDistributed(o.distributed, o.slowdown);
  LiveNodes::Registration counted(o.live, s.workerStats());
  auto r = s.run(std::forward<Seed>(seed));
  if (o.workers) *o.workers = s.reports();
  return r;
}

}  // namespace jackdaw::detail
