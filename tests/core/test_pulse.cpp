// SearchObserver::pulse: each worker calls it every pulseEvery() nodes it visits, so a driver can
// poll outside state from the workers; only observers that ask for a pulse get one.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "jackdaw/core/work_pool.hpp"
#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "jackdaw/skeletons/detail/parallel_search.hpp"
#include "jackdaw/skeletons/seq.hpp"
#include "toy_models.hpp"

using namespace jackdaw;

namespace {

using M = toy::BinaryTree;

// Counts nodes one accumulate() at a time: without accumulateChildren no leaf is counted in bulk,
// so every node passes through NodeRules::visit and advances the pulse.
struct Visits {
  std::uint64_t c = 0;
  void accumulate(const M::Node&) { ++c; }
  void combine(const Visits& o) { c += o.c; }
  std::uint64_t get() const { return c; }
};
using K = Enumeration<Visits>;

constexpr int kMaxDepth = 14;
constexpr std::uint64_t kNodes = (std::uint64_t{1} << (kMaxDepth + 1)) - 1;  // 32767

struct Pulses final : SearchObserver {
  explicit Pulses(unsigned e) : every(e) {}
  unsigned every;
  std::atomic<std::uint64_t> count{0};
  unsigned pulseEvery() const override { return every; }
  void pulse() override { count.fetch_add(1, std::memory_order_relaxed); }
};

SearchParams<long long> params() {
  SearchParams<long long> p;
  p.maxDepth = kMaxDepth;
  return p;
}

SearchResult<M, K> runSkeleton(const std::string& skel, std::vector<SearchObserver*> observers,
                               std::vector<WorkerReport>* reports) {
  if (skel == "budget") {
    budget::Options o;
    o.runtime.threads = 2;
    o.budget = 50;  // splits often, so both workers visit nodes
    o.observers = std::move(observers);
    o.workers = reports;
    return budget::search<M, K>({}, {}, params(), o);
  }
  depth_bounded::Options o;
  o.runtime.threads = 2;
  o.spawnDepth = 4;
  o.observers = std::move(observers);
  o.workers = reports;
  return depth_bounded::search<M, K>({}, {}, params(), o);
}

}  // namespace

TEST(Pulse, EachWorkerPulsesEvery64VisitedNodes) {
  const auto seqResult = seq::search<M, K>({}, {}, params());
  ASSERT_EQ(seqResult.enumerator.get(), kNodes);
  ASSERT_EQ(seqResult.stats.nodes, kNodes);
  for (const std::string skel : {"budget", "depth_bounded"}) {
    for (int rep = 0; rep < 5; ++rep) {
      Pulses every64(64), silent(0);
      std::vector<WorkerReport> reports;
      const auto r = runSkeleton(skel, {&every64, &silent}, &reports);
      SCOPED_TRACE(skel + " run " + std::to_string(rep));
      // The pulse changes nothing in the search.
      ASSERT_EQ(r.enumerator.get(), seqResult.enumerator.get());
      ASSERT_EQ(r.stats.nodes, seqResult.stats.nodes);
      ASSERT_TRUE(r.complete());

      // Each worker's countdown leaves less than one period unpulsed at the end.
      const std::uint64_t workers = reports.size();
      ASSERT_EQ(workers, 2u);
      const std::uint64_t n = r.stats.nodes, got = every64.count.load();
      EXPECT_LE(got, n / 64);
      EXPECT_GE(got + workers, n / 64) << "pulses " << got;
      // Exactly: a worker that visited v nodes pulsed floor(v / 64) times (its countdown starts full).
      std::uint64_t perWorker = 0;
      for (const auto& w : reports) perWorker += w.stats.nodes / 64;
      EXPECT_EQ(got, perWorker);
      // An observer that asked for no pulse gets none, though another one does.
      EXPECT_EQ(silent.count.load(), 0u);
    }
  }
}

TEST(Pulse, PeriodOneIsEveryVisitAndNoObserverAskingMeansNoPulse) {
  Pulses every1(1);
  auto r = runSkeleton("budget", {&every1}, nullptr);
  EXPECT_EQ(every1.count.load(), r.stats.nodes);
  EXPECT_EQ(r.stats.nodes, kNodes);

  Pulses silent(0);
  r = runSkeleton("depth_bounded", {&silent}, nullptr);
  EXPECT_EQ(r.enumerator.get(), kNodes);
  EXPECT_EQ(silent.count.load(), 0u);
}

TEST(Pulse, ForgetRecomputesTheShortestPeriod) {
  using S = detail::ParallelSearch<M, K, DepthPool<detail::Task<M::Node>>>;
  StopFlag stop;
  const auto p = params();
  S s({}, p, stop, RuntimeOptions{.threads = 2});
  struct Hooks {
    S& s;
    bool spawnsChildrenOf(int depth) const { return depth < 4; }
    void spawn(M::Node&& c, int d) { s.push({std::move(c), d}); }
  };
  s.setBody([&s](S::Slot& slot, S::TaskT&& t) {
    Hooks h{s};
    DepthFirst<M, K, Hooks> dfs(slot.rules, h);
    dfs.run(std::move(t.node), t.depth);
  });
  Pulses fast(64), slow(100), gone(1);
  s.observe(&gone);
  s.observe(&fast);
  s.observe(&slow);
  s.forget(&gone);  // the period goes back from 1 to 64
  s.forget(&fast);  // and from 64 to 100
  const auto r = s.run([&] { s.push({M::Node{}, 0}); });
  ASSERT_EQ(r.stats.nodes, kNodes);
  EXPECT_EQ(gone.count.load(), 0u);
  EXPECT_EQ(fast.count.load(), 0u);
  const std::uint64_t got = slow.count.load(), workers = static_cast<std::uint64_t>(s.runtime().slots());
  EXPECT_LE(got, kNodes / 100);  // at period 64 it would be about kNodes / 64
  EXPECT_GE(got + workers, kNodes / 100) << "pulses " << got;
}
