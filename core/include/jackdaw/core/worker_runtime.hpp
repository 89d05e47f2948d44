// The worker runtime of one process: a oneTBB task_arena with W workers, a task_group that tracks
// every task spawned into it, and one WorkerAccount per worker.
//
//   jackdaw::WorkerRuntime rt({.threads = 4, .bind = true});
//   rt.runAndWait([&] { rt.spawn([&] { ... rt.spawn(...); ... }); });   // returns when all are done
//
// oneTBB sleeps and wakes the workers: an idle worker costs no CPU. Worker identity is
// currentWorker(), in [0, workers()); the thread that calls runAndWait joins the arena as one
// of the W workers. With one worker there is no arena: that thread runs every task itself
// (detail/solo_loop.hpp). A task brackets its body with a TaskScope (accounting).
//
// Seam for a distributed stage (a comm thread outside the arena):
//   inject(f)           run f on a worker, callable from any thread (arena enqueue; counted by wait)
//   hold() / release()  keep runAndWait from returning while the pool is empty, until the
//                       distributed termination decision says done (release() from any thread)
//   runningTasks(), idleWorkers(), meanWorkRate()   lock-free reads for the load board
#pragma once

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>
#include <oneapi/tbb/task_scheduler_observer.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "jackdaw/core/cpu_set.hpp"
#include "jackdaw/core/detail/solo_loop.hpp"
#include "jackdaw/core/work_rate.hpp"

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace jackdaw {

struct RuntimeOptions {
  int threads = 0;          // 0: one per CPU the process may use (CpuSet)
  bool bind = false;        // pin worker k to the k-th allowed core
  WorkRateParams rate{};    // constants of (3.1)
  // The workers a runtime of these options has.
  int workers() const { return threads > 0 ? threads : CpuSet::current().count(); }
};

class WorkerRuntime {
 public:
  explicit WorkerRuntime(const RuntimeOptions& o = {})
      : workers_(o.workers()),
        widened_(widenFor(workers_)),
        arena_(workers_, 1),
        start_(std::chrono::steady_clock::now()),
        bind_(o.bind) {
    accounts_.reserve(static_cast<std::size_t>(slots()));
    for (int i = 0; i < slots(); ++i) accounts_.push_back(std::make_unique<PaddedAccount>(o.rate));
    if (o.bind) (void)CpuSet::current().cores();  // the topology, loaded here rather than by a worker
    if (solo()) return;
    arena_.initialize();
    if (o.bind) binder_ = std::make_unique<Binder>(arena_);
  }
  ~WorkerRuntime() { release(); }
  WorkerRuntime(const WorkerRuntime&) = delete;
  WorkerRuntime& operator=(const WorkerRuntime&) = delete;

  int workers() const noexcept { return workers_; }
  // More workers than CPUs this process may use: they run, sharing the CPUs.
  bool oversubscribed() const noexcept { return widened_ != nullptr; }
  // Worker indices: [0, slots()) with slots() == workers().
  int slots() const noexcept { return workers_; }
  // The calling worker's index, or -1 outside the arena (with one worker: outside runAndWait).
  int currentWorker() const noexcept {
    if (solo()) return solo_.onLoopThread() ? 0 : -1;
    const int i = tbb::this_task_arena::current_thread_index();
    return i == tbb::task_arena::not_initialized ? -1 : i;
  }

  // Run f inside the arena (with one worker, on this thread), then wait for every task spawned
  // into the group (and for release() if hold() was called). Exceptions thrown by tasks come out here.
  template <class F>
  void runAndWait(F&& f) {
    if (solo()) {
      struct Bound {  // the caller's binding is given back on the way out, as an arena does
        bool on;
        ~Bound() {
          if (on) CpuSet::current().unbindThisThread();
        }
      } bound{bind_ && CpuSet::current().bindThisThread(0)};
      return solo_.run(std::forward<F>(f));
    }
    arena_.execute([&] {
      f();
      group_.wait();
      tsanAcquire(&tasksDone_);
    });
  }

  // From a worker (inside the arena): run f as a new task.
  template <class F>
  void spawn(F&& f) {
    if (solo()) solo_.spawn(std::forward<F>(f));
    else group_.run(prepare(std::forward<F>(f)));
  }

  // From any thread, e.g. a comm thread handing in work that arrived from another rank.
  template <class F>
  void inject(F&& f) {
    if (solo()) solo_.inject(std::forward<F>(f));
    else arena_.enqueue(prepare(std::forward<F>(f)));
  }

  // Keep runAndWait waiting (without spinning) until release().
  void hold() {
    if (solo()) return solo_.hold();
    std::lock_guard lock(holdMutex_);
    if (!hold_) hold_.emplace(prepare(Nothing{}));
  }
  void release() {
    if (solo()) return solo_.release();
    std::lock_guard lock(holdMutex_);
    if (hold_) {
      arena_.enqueue(std::move(*hold_));
      hold_.reset();
    }
  }

  // Brackets one task on the calling worker: its busy/idle cycle and the running count.
  // Exception-safe.
  //   WorkerRuntime::TaskScope t(rt);  run(t.worker());
  class TaskScope {
   public:
    explicit TaskScope(WorkerRuntime& rt) : rt_(rt), w_(rt.currentWorker()) { begin(); }
    ~TaskScope() {
      rt_.account(w_).endWork(rt_.nowUs());
      rt_.running_.fetch_sub(1, std::memory_order_relaxed);
    }
    TaskScope(const TaskScope&) = delete;
    TaskScope& operator=(const TaskScope&) = delete;
    int worker() const noexcept { return w_; }

   private:
    void begin() {
      rt_.running_.fetch_add(1, std::memory_order_relaxed);
      rt_.account(w_).startWork(rt_.nowUs());
    }
    WorkerRuntime& rt_;
    int w_;
  };

  int runningTasks() const noexcept { return running_.load(std::memory_order_relaxed); }
  int idleWorkers() const noexcept { return std::max(0, workers_ - runningTasks()); }
  double meanWorkRate() const noexcept {
    double s = 0;
    for (int i = 0; i < workers_; ++i) s += accounts_[static_cast<std::size_t>(i)]->acc.workRate();
    return s / workers_;
  }

  WorkerAccount& account(int w) { return accounts_[static_cast<std::size_t>(w)]->acc; }
  // Microseconds since the runtime started (the clock of every account).
  double nowUs() const {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_).count();
  }
  // After the search: close every account's books.
  void finishAccounts() {
    const double t = nowUs();
    for (auto& a : accounts_) a->acc.finish(t);
  }

 private:
  // Tasks cross threads inside libtbb, which ThreadSanitizer does not see. Under it, every task
  // announces its hand-over (constructed → run) and its end (→ wait returns); no code otherwise.
  static void tsanRelease([[maybe_unused]] const void* p) {
#if defined(__SANITIZE_THREAD__)
    __tsan_release(const_cast<void*>(p));
#endif
  }
  static void tsanAcquire([[maybe_unused]] const void* p) {
#if defined(__SANITIZE_THREAD__)
    __tsan_acquire(const_cast<void*>(p));
#endif
  }
  bool solo() const noexcept { return workers_ == 1; }

  struct Nothing {
    void operator()() const {}
  };
  // The function object of a task. Under ThreadSanitizer it notes where TBB placed it, so the
  // spawner can announce the finished task object (release) that the runner then acquires.
  static inline thread_local const void* lastPlaced_ = nullptr;
  template <class F>
  struct Handed {
    Handed(F&& fn, WorkerRuntime* r) : f(std::move(fn)), rt(r) { lastPlaced_ = this; }
    Handed(Handed&& o) noexcept : f(std::move(o.f)), rt(o.rt) { lastPlaced_ = this; }
    Handed(const Handed& o) : f(o.f), rt(o.rt) { lastPlaced_ = this; }
    void operator()() const {
      tsanAcquire(this);
      f();
      tsanRelease(&rt->tasksDone_);
    }
    F f;
    WorkerRuntime* rt;
  };
  // A task of the group, complete (and announced) before anyone can run it.
  template <class F>
  tbb::task_handle prepare(F&& f) {
    tbb::task_handle h = group_.defer(Handed<std::decay_t<F>>(std::forward<F>(f), this));
    tsanRelease(lastPlaced_);
    return h;
  }

  struct alignas(64) PaddedAccount {
    explicit PaddedAccount(WorkRateParams p) : acc(0.0, p) {}
    WorkerAccount acc;
  };

  // Pins each thread entering the arena to a core; an external thread gets its binding back on exit.
  class Binder : public tbb::task_scheduler_observer {
   public:
    explicit Binder(tbb::task_arena& a) : tbb::task_scheduler_observer(a) { observe(true); }
    ~Binder() override { observe(false); }
    void on_scheduler_entry(bool) override {
      CpuSet::current().bindThisThread(tbb::this_task_arena::current_thread_index());
    }
    void on_scheduler_exit(bool isWorker) override {
      if (!isWorker) CpuSet::current().unbindThisThread();
    }
  };

  // oneTBB sizes its thread pool by the process's CPU set: asked for more workers than that
  // (mpirun binds each rank to one core by default), it would warn and quietly run fewer. The
  // number asked for stands: the pool is widened to it while this runtime lives.
  static std::unique_ptr<tbb::global_control> widenFor(int workers) {
    if (workers <= tbb::info::default_concurrency()) return nullptr;
    return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                 static_cast<std::size_t>(workers));
  }

  int workers_;
  std::unique_ptr<tbb::global_control> widened_;
  tbb::task_arena arena_;
  tbb::task_group group_;
  std::vector<std::unique_ptr<PaddedAccount>> accounts_;
  alignas(64) std::atomic<int> running_{0};
  std::chrono::steady_clock::time_point start_;
  bool bind_;
  std::unique_ptr<Binder> binder_;
  std::mutex holdMutex_;
  std::optional<tbb::task_handle> hold_;
  detail::SoloLoop solo_;  // one worker: its tasks (no arena)
  char tasksDone_ = 0;  // only its address is used (ThreadSanitizer annotations)
};

}  // namespace jackdaw
