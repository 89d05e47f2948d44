// What the board tells a thief is what the victim would give (issue: the load board tells the
// truth). On exact numbers, without MPI:
// - SearchWork publishes as its task count exactly the tasks giveAway hands over before it
//   refuses (its pool beyond its own idle workers), one request at a time or half at a time;
// - performance leaves a rank that refused it out of every refresh until that rank republishes;
// - performance's one retry after a refusal belongs to one hunger episode.
#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <vector>

#include "fake_board.hpp"
#include "jackdaw/comm/policies/performance.hpp"
#include "jackdaw/comm/policies/proportional.hpp"
#include "jackdaw/core/stop.hpp"
#include "jackdaw/distributed/search_work.hpp"

using namespace jackdaw;
using namespace jackdaw::comm;
using namespace jackdaw::comm::testing;

namespace {

// The parts of a ParallelSearch that SearchWork touches: a pool of tasks and idle workers.
struct FakeSearch {
  struct TaskT {
    int node = 0, depth = 0;
    double priority = 0;
  };
  struct T {
    using Obj = long long;
  };
  struct Pool {
    std::deque<TaskT> tasks;
    std::size_t size() const { return tasks.size(); }
  };
  struct Runtime {
    int idle = 0;
    int idleWorkers() const { return idle; }
    int runningTasks() const { return 0; }
    double meanWorkRate() const { return 1.0; }
  };
  Pool pool_;
  Runtime runtime_;
  StopFlag stop_;
  int splits = 0;
  Pool& pool() { return pool_; }
  Runtime& runtime() { return runtime_; }
  StopFlag& stopFlag() { return stop_; }
  void requestSplit() { ++splits; }
  bool splitsForThieves() const { return false; }
  std::optional<TaskT> stealShallowest() {
    if (pool_.tasks.empty()) return std::nullopt;
    TaskT t = pool_.tasks.front();
    pool_.tasks.pop_front();
    return t;
  }
  void offerBound(long long) {}
  void inject(TaskT t) { pool_.tasks.push_back(t); }
  std::uint64_t tasksCreated() const { return 0; }
  std::uint64_t tasksFinished() const { return 0; }
  void fill(int n) {
    for (int i = 0; i < n; ++i) pool_.tasks.push_back({i, 1, 0});
  }
};

// Gives until refused; returns the tasks handed over.
std::size_t drain(distributed::SearchWork<FakeSearch>& w, bool half) {
  std::size_t total = 0;
  for (;;) {
    std::vector<std::byte> out;
    const auto n = w.giveAway(half, false, out);
    if (n == 0) return total;
    total += n;
  }
}

}  // namespace

TEST(BoardTruth, PublishedCountIsWhatGiveAwayHandsOver) {
  for (bool half : {false, true}) {
    for (int queued : {0, 1, 2, 3, 7, 20}) {
      for (int idle : {0, 1, 3}) {
        FakeSearch s;
        s.fill(queued);
        s.runtime_.idle = idle;
        distributed::SearchWork<FakeSearch> w(s, false);
        const std::size_t published = w.stealableTasks();
        EXPECT_EQ(published, static_cast<std::size_t>(queued > idle ? queued - idle : 0)) << queued << " " << idle;
        EXPECT_EQ(drain(w, half), published) << "queued " << queued << ", idle " << idle << ", half " << half;
        EXPECT_EQ(w.stealableTasks(), 0u);                              // a refusal follows a published 0
        EXPECT_EQ(s.pool_.size(), static_cast<std::size_t>(std::min(queued, idle)));  // the idle workers' share stays
      }
    }
  }
}

TEST(BoardTruth, RefuserIsLeftOutUntilItRepublishes) {
  FakeBoard b(4);
  b.set(2, 1.0, 40);
  b.set(3, 1.0, 10);
  PerformancePolicy p(ctxFor(0, 4, b, 1), {});
  p.refresh(0);
  ASSERT_EQ(p.choose(), 2);
  // Rank 2 refuses, but its record still says 40 (it has not republished): the auxiliary refresh
  // must not send us back to it.
  EXPECT_EQ(p.onOutcome({2, false, 0, 30.0}), 0);
  EXPECT_EQ(p.choose(), 3);
  EXPECT_TRUE(p.guarded(2));
  // Still not republished: an automatic refresh leaves it out too.
  p.refresh(1'000'000);
  EXPECT_EQ(p.choose(), 3);
  EXPECT_EQ(p.stats()["guarded_skips"], 2u);
  // Rank 2 republishes (any new record, here the same count): it is a candidate again.
  b.set(2, 1.0, 40);
  p.refresh(2'000'000);
  EXPECT_FALSE(p.guarded(2));
  EXPECT_EQ(p.choose(), 2);
  // Work from a rank clears its guard at once.
  EXPECT_EQ(p.onOutcome({2, false, 0, 30.0}), 1000);  // the episode's retry was used above: back off
  EXPECT_TRUE(p.guarded(2));
  p.onOutcome({2, true, 1, 30.0});
  EXPECT_FALSE(p.guarded(2));
}

TEST(BoardTruth, RetryStateResetsWithEachHungerEpisode) {
  FakeBoard b(3);
  b.set(1, 1.0, 40);
  b.set(2, 1.0, 30);
  PerformancePolicy p(ctxFor(0, 3, b, 1), {});
  p.refresh(0);
  p.onHungry();
  ASSERT_EQ(p.choose(), 1);
  EXPECT_EQ(p.onOutcome({1, false, 0, 30.0}), 0);  // first refusal: auxiliary refresh, retry at once
  EXPECT_EQ(p.counters().refreshesAuxiliary, 1u);
  // The retry is never sent: the rank's own workers found work and it stopped being hungry. Much
  // later it is hungry again; its first refusal is again the episode's first.
  b.set(1, 1.0, 40);
  p.onHungry();
  EXPECT_EQ(p.onOutcome({2, false, 0, 30.0}), 0);
  EXPECT_EQ(p.counters().refreshesAuxiliary, 2u);
  EXPECT_EQ(p.counters().backoffs, 0u);
  // Without a new episode the second refusal backs off, as the specification says.
  EXPECT_EQ(p.onOutcome({1, false, 0, 30.0}), 1000);
  EXPECT_EQ(p.counters().backoffs, 1u);
}

// After a refusal the auxiliary refresh reads the best two candidates at their owners
// and chooses on what the owners say, not on the pushed copies.
TEST(BoardTruth, AuxiliaryRefreshReadsTheBestTwoAtTheirOwners) {
  FakeBoard b(5);
  b.set(1, 1.0, 50);
  b.set(2, 1.0, 20);
  b.set(3, 1.0, 10);
  b.set(4, 1.0, 5);
  PerformancePolicy p(ctxFor(0, 5, b, 1), {});
  p.refresh(0);
  ASSERT_EQ(p.choose(), 1);
  EXPECT_TRUE(b.refreshed.empty()) << "the automatic refresh reads the pushed board only";
  // Rank 2 gave its work away, but has not pushed that yet; rank 3 still has its 10.
  b.setAtOwner(2, 1.0, 0);
  EXPECT_EQ(p.onOutcome({1, false, 0, 30.0}), 0);
  EXPECT_EQ(b.refreshed, (std::vector<int>{2, 3})) << "the best two unguarded candidates, read at their owners";
  EXPECT_EQ(p.choose(), 3) << "the pushed board said 2 (20 tasks); its owner says 0";
  EXPECT_EQ(p.stats()["fresh_reads"], 2u);
}

// The sampled board: candidates are read at their owners already, so no second read; the choice
// is among the sample only.
TEST(BoardTruth, SampledCandidatesAreTheOnlyOnesScored) {
  FakeBoard b(5);
  b.sample(2);
  b.set(4, 1.0, 100);  // the only rank with work
  PerformancePolicy p(ctxFor(0, 5, b, 1), {});
  p.refresh(0);  // sample {1, 2}: nobody worth robbing, a random target
  EXPECT_EQ(b.refreshed, (std::vector<int>{1, 2}));
  EXPECT_EQ(p.counters().noTarget, 1u);
  p.refresh(1'000'000);  // sample {3, 4}: rank 4
  EXPECT_EQ(b.refreshed, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(p.choose(), 4);
  // A refusal: the auxiliary refresh draws the next sample and reads nothing twice.
  b.setAtOwner(4, 1.0, 0);
  EXPECT_EQ(p.onOutcome({4, false, 0, 30.0}), 0);
  EXPECT_EQ(b.refreshed.size(), 6u);
  EXPECT_EQ(p.stats()["fresh_reads"], 0u);

  // proportional draws only from its sample: with {1, 2} offered, rank 4's work is unseen.
  FakeBoard c(5);
  c.sample(2);
  c.set(4, 1.0, 100);
  ProportionalPolicy q(ctxFor(0, 5, c, 1, 3), {});
  EXPECT_EQ(q.counters().noTarget, 0u);
  (void)q.choose();  // {1, 2}: uniform fallback
  EXPECT_EQ(q.counters().noTarget, 1u);
  EXPECT_EQ(q.choose(), 4);  // {3, 4}: rank 4 has all the weight
}
