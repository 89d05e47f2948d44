// Owner throughput of the per-worker queues, in the BWoS paper's two settings:
// (a) the owner alone, pushing a batch then popping it (LIFO): BlockQueue, a plain std::deque,
//     today's mutex DepthPool;
// (b) the same owner loop, each taken task now costing a little work (kWork LCG steps, about
//     20 ns, so that a thief can keep up), while one thief thread (or 15) steals, throttled so
//     that about 1 % or 10 % of the tasks are stolen (counter stolen_pct: what they reached).
// items_per_second counts owner operations (pushes and successful pops).
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <optional>
#include <thread>
#include <vector>

#include "jackdaw/core/block_queue.hpp"
#include "jackdaw/core/work_pool.hpp"

namespace {

struct Task {
  int depth = 0;
  std::uint64_t value = 0;
};

constexpr int kBatch = 128;  // tasks per push-then-pop round; spans several blocks
constexpr int kWork = 16;    // LCG steps per task taken in (b)

// A fixed amount of dependent arithmetic the compiler cannot fold.
inline void work(std::uint64_t& x, int n) {
  for (int i = 0; i < n; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    asm volatile("" : "+r"(x));
  }
}

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

template <std::size_t M, std::size_t B>
struct Block {
  jackdaw::BlockQueue<Task, M, B> q;
  bool push(Task t) { return q.push(std::move(t)); }
  std::optional<Task> pop() { return q.pop(); }
  std::optional<Task> steal() { return q.steal(); }
};
struct Depth {
  jackdaw::DepthPool<Task> q;
  bool push(Task t) {
    q.push(std::move(t));
    return true;
  }
  std::optional<Task> pop() { return q.pop(); }
  std::optional<Task> steal() { return q.stealShallowest(); }
};
struct Deque {
  std::deque<Task> q;
  bool push(Task t) {
    q.push_back(t);
    return true;
  }
  std::optional<Task> pop() {
    if (q.empty()) return std::nullopt;
    Task t = q.back();
    q.pop_back();
    return t;
  }
};

// One round: kBatch pushes (four tasks per depth level), then pop until empty.
template <class Q>
std::uint64_t round(Q& q, std::uint64_t& sink, int workPerTask = 0) {
  std::uint64_t ops = 0;
  for (int i = 0; i < kBatch; ++i) ops += q.push(Task{i / 4, static_cast<std::uint64_t>(i)});
  while (auto t = q.pop()) {
    sink += t->value;
    work(sink, workPerTask);
    ++ops;
  }
  return ops;
}

template <class Q>
void ownerOnly(benchmark::State& state) {
  Q q;
  std::uint64_t ops = 0, sink = 0;
  for (auto _ : state) ops += round(q, sink);
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(ops));
}

// range(0): threads (1: the owner alone; N > 1: the owner and N - 1 thieves); range(1): the
// percent of pushed tasks the thieves together steal (each steals while the total is under it).
template <class Q>
void withThief(benchmark::State& state) {
  const int thieves = static_cast<int>(state.range(0)) - 1;
  const auto pct = static_cast<std::uint64_t>(state.range(1));
  Q q;
  alignas(64) std::atomic<std::uint64_t> pushed{0};
  alignas(64) std::atomic<std::uint64_t> stolen{0};
  alignas(64) std::atomic<bool> stop{false};
  std::vector<std::thread> ts;
  for (int i = 0; i < thieves; ++i)
    ts.emplace_back([&] {
      std::uint64_t sink = 0;
      unsigned idle = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        if (stolen.load(std::memory_order_relaxed) * 100 < pct * pushed.load(std::memory_order_relaxed)) {
          if (auto x = q.steal()) {
            sink += x->value;
            work(sink, kWork);
            stolen.fetch_add(1, std::memory_order_relaxed);
            continue;
          }
        }
        // Over quota or nothing granted: spin, and now and then let another core's load run.
        if (++idle % 256 == 0) std::this_thread::yield();
        else pause();
      }
      benchmark::DoNotOptimize(sink);
    });
  std::uint64_t ops = 0, sink = 0, pushes = 0;
  for (auto _ : state) {
    ops += round(q, sink, kWork);
    pushes += kBatch;
    pushed.store(pushes, std::memory_order_relaxed);
  }
  stop.store(true);
  for (auto& t : ts) t.join();
  while (auto x = q.pop()) sink += x->value;
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(ops));
  state.counters["stolen_pct"] = pushes ? 100.0 * static_cast<double>(stolen.load()) / static_cast<double>(pushes) : 0.0;
}

}  // namespace

BENCHMARK(ownerOnly<Block<16, 16>>)->Name("owner_only/BlockQueue<16x16>");
BENCHMARK(ownerOnly<Block<64, 8>>)->Name("owner_only/BlockQueue<64x8>");
BENCHMARK(ownerOnly<Deque>)->Name("owner_only/std::deque");
BENCHMARK(ownerOnly<Depth>)->Name("owner_only/DepthPool");
BENCHMARK(withThief<Block<16, 16>>)->Name("with_thief/BlockQueue<16x16>")
    ->ArgNames({"threads", "pct"})->Args({1, 0})->Args({2, 1})->Args({2, 10})->Args({16, 1})->Args({16, 10})->UseRealTime();
BENCHMARK(withThief<Depth>)->Name("with_thief/DepthPool")
    ->ArgNames({"threads", "pct"})->Args({1, 0})->Args({2, 1})->Args({2, 10})->Args({16, 1})->Args({16, 10})->UseRealTime();

BENCHMARK_MAIN();
