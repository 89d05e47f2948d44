// Timeline: per-thread buffers, the cap, and the task spans a TimelineObserver records from a
// real parallel search (each worker's spans disjoint, as many as the worker's tasks, each task's
// depth within the spawn depth).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "jackdaw/core/timeline.hpp"
#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "toy_models.hpp"

using namespace jackdaw;

namespace {
using M = toy::BinaryTree;
struct Count {
  std::uint64_t c = 0;
  void accumulate(const M::Node&) { ++c; }
  void combine(const Count& o) { c += o.c; }
  std::uint64_t get() const { return c; }
};
using K = Enumeration<Count>;
constexpr int kMaxDepth = 16;
constexpr std::uint64_t kNodes = (std::uint64_t{1} << (kMaxDepth + 1)) - 1;

SearchParams<long long> params() {
  SearchParams<long long> p;
  p.maxDepth = kMaxDepth;
  return p;
}
}  // namespace

TEST(Timeline, ThreadsRecordIntoTheirOwnBuffersAndEveryEventComesBackSorted) {
  Timeline tl;
  constexpr int kThreads = 4, kEach = 5000;
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i)
        tl.record({static_cast<std::int64_t>(i) * kThreads + t, 1, t, i, 0, TimelineKind::Task, static_cast<std::int16_t>(t)});
    });
  for (auto& t : ts) t.join();
  const auto ev = tl.events();
  ASSERT_EQ(ev.size(), static_cast<std::size_t>(kThreads * kEach));
  EXPECT_TRUE(std::is_sorted(ev.begin(), ev.end(), [](const auto& a, const auto& b) { return a.startNs < b.startNs; }));
  std::map<int, int> perLane;
  for (const auto& e : ev) {
    EXPECT_EQ(e.lane, e.a);  // nothing torn or mixed up between threads
    ++perLane[e.lane];
  }
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(perLane[t], kEach);
  EXPECT_EQ(tl.dropped(), 0u);
}

TEST(Timeline, PastTheCapEventsAreCountedAndTheEarliestDropIsKept) {
  Timeline tl({.cap = 10});
  for (int i = 0; i < 25; ++i) tl.record({100 - i, 1, 0, 0, 0, TimelineKind::Task, 0});
  // The main lane frames the rest and is kept whatever the count.
  tl.record({0, 1000, 0, 0, 0, TimelineKind::Search, Timeline::kMainLane});
  const auto ev = tl.events();
  EXPECT_EQ(ev.size(), 11u);
  EXPECT_EQ(tl.dropped(), 15u);
  EXPECT_EQ(tl.firstDropNs(), 100 - 24);  // the earliest start among the dropped ones
  EXPECT_EQ(std::count_if(ev.begin(), ev.end(), [](const auto& e) { return e.kind == TimelineKind::Search; }), 1);
}

TEST(Timeline, ALaterTimelineOnTheSameThreadGetsItsOwnBuffer) {
  // A thread's cached buffer belongs to one timeline; a new one (maybe at the same address) starts empty.
  for (int round = 0; round < 3; ++round) {
    Timeline tl;
    tl.instant(TimelineKind::Publish, Timeline::kCommLane);
    tl.instant(TimelineKind::Publish, Timeline::kCommLane);
    EXPECT_EQ(tl.events().size(), 2u) << "round " << round;
  }
}

TEST(Timeline, ObserverRecordsOneDisjointSpanPerTaskOnEachWorker) {
  for (const std::string skel : {"budget", "depth_bounded"}) {
    SCOPED_TRACE(skel);
    Timeline tl;
    TimelineObserver watch(tl);
    std::vector<WorkerReport> reports;
    SearchResult<M, K> r;
    constexpr int kSpawnDepth = 5;
    if (skel == "budget") {
      budget::Options o;
      o.runtime.threads = 2;
      o.budget = 100;
      o.observers = {&watch};
      o.workers = &reports;
      r = budget::search<M, K>({}, {}, params(), o);
    } else {
      depth_bounded::Options o;
      o.runtime.threads = 2;
      o.spawnDepth = kSpawnDepth;
      o.splitOnHunger = false;  // tasks only above the cutoff (checked below)
      o.observers = {&watch};
      o.workers = &reports;
      r = depth_bounded::search<M, K>({}, {}, params(), o);
    }
    ASSERT_EQ(r.enumerator.get(), kNodes);
    ASSERT_EQ(reports.size(), 2u);
    std::map<int, std::vector<std::pair<std::int64_t, std::int64_t>>> spans;
    for (const auto& e : tl.events()) {
      ASSERT_EQ(e.kind, TimelineKind::Task);
      ASSERT_GE(e.durNs, 0);
      ASSERT_GE(e.a, 0);
      ASSERT_LE(e.a, kMaxDepth);
      if (skel == "depth_bounded") {
        ASSERT_LE(e.a, kSpawnDepth);
      }
      spans[e.lane].emplace_back(e.startNs, e.startNs + e.durNs);
    }
    for (const auto& w : reports) {
      auto& s = spans[w.worker];
      EXPECT_EQ(s.size(), w.tasks) << "worker " << w.worker;
      std::sort(s.begin(), s.end());
      for (std::size_t i = 1; i < s.size(); ++i) ASSERT_LE(s[i - 1].second, s[i].first) << "worker " << w.worker;
    }
  }
}
