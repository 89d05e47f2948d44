// The seams a driver outside the engine uses: a thread outside the arena injects work, steals the
// shallowest task for a "remote" thief, watches the task counters, and ends the search by
// release(); and the observer interface reports every event the engine promises.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "../core/toy_models.hpp"
#include "jackdaw/core/work_pool.hpp"
#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/detail/parallel_search.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"

using namespace jackdaw;

TEST(Seam, OutsideThreadInjectsStealsAndDecidesTermination) {
  using M = toy::BinaryTree;
  using K = Enumeration<CountNodes>;
  using S = detail::ParallelSearch<M, K, DepthPool<detail::Task<M::Node>>>;
  constexpr int kMaxDepth = 14;
  SearchParams<long long> p;
  p.maxDepth = kMaxDepth;
  for (int rep = 0; rep < 10; ++rep) {
    StopFlag stop;
    S s({}, p, stop, RuntimeOptions{.threads = 2});
    struct Hooks {
      S& s;
      bool spawnsChildrenOf(int depth) const { return depth < 4; }
      void spawn(M::Node&& c, int d) { s.push({std::move(c), d}); }
    };
    auto body = [&s](S::Slot& slot, S::TaskT&& t) {
      Hooks h{s};
      DepthFirst<M, K, Hooks> dfs(slot.rules, h);
      dfs.run(std::move(t.node), t.depth);
    };
    s.setBody(body);
    s.runtime().hold();  // the arena stays up while the pool is empty, until release()
    std::uint64_t remoteNodes = 0, stolen = 0;
    std::thread comm([&] {
      s.inject({M::Node{}, 0});  // made here: counted by this thread, not by the search
      // Quiescent when every task made (the injected root + the search's) ran here or was stolen.
      // Finished is read before created: a task running between the reads can only look unfinished.
      for (;;) {
        const std::uint64_t finished = s.tasksFinished();
        if (finished + stolen == s.tasksCreated() + 1) break;
        if (stolen < 3) {
          if (auto t = s.stealShallowest()) {
            ++stolen;
            // The thief searches the subtree elsewhere: a full binary subtree down to kMaxDepth.
            remoteNodes += (std::uint64_t{1} << (kMaxDepth - t->depth + 1)) - 1;
          }
        }
        std::this_thread::yield();
      }
      s.runtime().release();
    });
    auto r = s.run([] {});
    comm.join();
    EXPECT_EQ(r.enumerator.get() + remoteNodes, (std::uint64_t{1} << (kMaxDepth + 1)) - 1) << "stolen " << stolen;
    EXPECT_EQ(s.pool().size(), 0u);
  }
}

namespace {
// Counts every event; called from workers concurrently.
struct Counting final : SearchObserver {
  std::atomic<std::uint64_t> created{0}, finished{0}, dry{0}, stops{0}, improved{0};
  std::atomic<int> lastStop{0};
  void tasksCreated(std::size_t n) override { created += n; }
  void taskFinished(const TaskSpan& t) override {
    EXPECT_GE(t.worker, 0);
    EXPECT_GE(t.depth, 0);
    EXPECT_GE(t.seconds, 0.0);
    ++finished;
  }
  void poolRanDry() override { ++dry; }
  void stopRequested(StopReason r, int) override {
    ++stops;
    lastStop = static_cast<int>(r);
  }
  void incumbentImproved(int) override { ++improved; }
};
}  // namespace

TEST(Observer, SeesTasksDryPoolStopAndImprovements) {
  // Enumeration: every created task is reported and runs (the root is pushed as a task too).
  {
    Counting c;
    depth_bounded::Options o;
    o.runtime.threads = 2;
    o.spawnDepth = 3;
    o.splitOnHunger = false;  // the tasks the cutoff makes, and only those
    o.observers.push_back(&c);
    SearchParams<long long> p;
    p.maxDepth = 10;
    auto r = depth_bounded::search<toy::BinaryTree, Enumeration<CountNodes>>({}, {}, p, o);
    EXPECT_EQ(r.enumerator.get(), (std::uint64_t{1} << 11) - 1);
    EXPECT_EQ(c.created.load(), 1u + 2u + 4u + 8u);  // the root, then every child above depth 3
    EXPECT_EQ(c.finished.load(), c.created.load());
    EXPECT_GE(c.dry.load(), 1u);  // the last task leaves the pool empty
    EXPECT_EQ(c.stops.load(), 0u);
    EXPECT_EQ(c.improved.load(), 0u);
  }
  // Decision: the solution stops the search and is reported once as a stop, and as an improvement.
  {
    Counting c;
    budget::Options o;
    o.runtime.threads = 2;
    o.budget = 5;
    o.observers.push_back(&c);
    SearchParams<int> p;
    p.expectedObjective = 8;
    auto r = budget::search<toy::Queens, Decision>({8}, {}, p, o);
    ASSERT_TRUE(r.found());
    EXPECT_EQ(c.stops.load(), 1u);
    EXPECT_EQ(c.lastStop.load(), static_cast<int>(StopReason::Found));
    EXPECT_GE(c.improved.load(), 1u);
  }
  // No observer: nothing to call, same answer.
  {
    depth_bounded::Options o;
    o.runtime.threads = 2;
    SearchParams<long long> p;
    p.maxDepth = 10;
    EXPECT_EQ((depth_bounded::search<toy::BinaryTree, Enumeration<CountNodes>>({}, {}, p, o).enumerator.get()),
              (std::uint64_t{1} << 11) - 1);
  }
}

namespace {
constexpr int kRingDepth = 22;
struct BellWatch final : SearchObserver {
  std::atomic<int> splits{0}, rung{0};
  void splitForThief() override { ++splits; }
  void bellRang() override { ++rung; }
};
// A launch as a distributed driver's, reduced to what the test needs: a watched bell, rung once a
// task runs, and a "thief" that steals what the ring brings until every task is accounted for.
struct RingLaunch {
  BellWatch& watch;
  std::uint64_t& remoteNodes;
  int& stolen;
  bool spansProcesses() const { return true; }  // a thief elsewhere: the hunger rule is on
  template <class Search, class Seed>
  typename Search::Result operator()(Search& s, Seed&& seed) const {
    std::uint64_t bell = 0;
    s.watchBell(&bell);
    s.observe(&watch);
    s.runtime().hold();
    std::thread thief([&] {
      while (s.runtime().runningTasks() == 0) std::this_thread::yield();
      std::atomic_ref<std::uint64_t>(bell).fetch_add(1);
      for (;;) {
        const std::uint64_t finished = s.tasksFinished();
        if (finished + static_cast<std::uint64_t>(stolen) == s.tasksCreated()) break;
        if (auto t = s.stealShallowest()) {
          ++stolen;
          remoteNodes += (std::uint64_t{1} << (kRingDepth - t->depth + 1)) - 1;
        }
        std::this_thread::yield();
      }
      s.runtime().release();
    });
    auto r = s.run(std::forward<Seed>(seed));
    thief.join();
    s.forget(&watch);
    return r;
  }
};
}  // namespace

// A doorbell the search watches (what the distributed driver gives a skeleton that splits for
// thieves): a thief's ring makes the busy worker, with nothing queued, split for it at its next
// hunger check, and tell the driver (splitForThief) rather than ask it to look (bellRang). What
// the "thief" steals of it (as the worker takes the rest, possibly nothing) and what the worker
// finds add up to the tree.
TEST(Seam, ARingMakesTheBusyWorkerSplit) {
  using M = toy::BinaryTree;
  using K = Enumeration<CountNodes>;
  BellWatch watch;
  std::uint64_t remoteNodes = 0;
  int stolen = 0;
  budget::Options o;
  o.runtime.threads = 1;
  o.grain.automatic = false;
  o.budget = std::uint64_t{1} << 40;  // no budget split: only the ring's
  SearchParams<long long> p;
  p.maxDepth = kRingDepth;
  StopFlag stop;
  auto r = budget::search<M, K>({}, {}, p, stop, o, RingLaunch{watch, remoteNodes, stolen});
  EXPECT_EQ(r.enumerator.get() + remoteNodes, (std::uint64_t{1} << (kRingDepth + 1)) - 1) << "stolen " << stolen;
  EXPECT_EQ(watch.splits.load(), 1);
  EXPECT_EQ(watch.rung.load(), 0);
}
