// The work a stop keeps is saved in the order the search would have taken it. The queued tasks
// pass through whichever worker's token meets them after the stop; saved as each worker met them
// (worker 0's, then worker 1's), a level's tasks came back interleaved (0, 2, 4, …, 1, 3, …), and
// every checkpoint leg shuffled the pool again. A branch-and-bound search whose children come best
// first (MaxClique's colour order) then found its optimum far later: brock400_4 with
// --checkpoint-every searched 3-7 times the nodes in some runs (bench/results/checkpoint_every.md).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "../core/toy_models.hpp"
#include "jackdaw/core/enumerators.hpp"
#include "jackdaw/skeletons/budget.hpp"

using namespace jackdaw;

namespace {

using M = toy::BinaryTree;
using K = Enumeration<CountNodes>;
using TaskT = detail::Task<M::Node>;

// Each task a token runs is slow to finish, so that both workers take turns at the queue.
struct Slow final : SearchObserver {
  void taskFinished(const TaskSpan&) override { std::this_thread::sleep_for(std::chrono::microseconds(300)); }
};

// One leg stopped before it starts: every task handed in is kept, none is run.
struct StoppedLeg {
  std::vector<TaskT> tasks;  // in: the queue, in order; out: what the stop kept
  template <class S, class Seed>
  typename S::Result operator()(S& s, Seed&&) {
    Slow slow;
    s.observe(&slow);
    s.keepUnexplored();
    s.stopFlag().request(StopReason::Interrupted);
    auto r = s.run([&] { s.pushAll(std::move(tasks)); });
    s.forget(&slow);
    tasks = s.takeUnexplored();
    return r;
  }
};

std::vector<TaskT> keptAfterStop(std::vector<TaskT> queue) {
  StopFlag stop;
  budget::Options o;
  o.runtime.threads = 2;
  o.budget = 4;
  StoppedLeg leg{std::move(queue)};
  SearchParams<long long> p;
  const auto r = budget::search<M, K>(M::Space{}, M::Node{}, p, stop, o, leg);
  EXPECT_EQ(r.stats.nodes, 0u) << "a stopped leg visited nodes";
  EXPECT_EQ(r.stop, StopReason::Interrupted) << "work was kept, so the result is partial";
  return std::move(leg.tasks);
}

}  // namespace

TEST(SavedOrder, QueuedTasksKeepTheirOrderWhicheverWorkerMetThem) {
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<TaskT> queue;
    for (std::uint64_t i = 0; i < 64; ++i) queue.push_back({M::Node{6, i}, 6, 0});
    const auto kept = keptAfterStop(std::move(queue));
    ASSERT_EQ(kept.size(), 64u) << "a queued task was lost";
    for (std::size_t i = 0; i < kept.size(); ++i)
      ASSERT_EQ(kept[i].node.path, i) << "trial " << trial << ": task " << kept[i].node.path << " saved at position " << i;
  }
}

TEST(SavedOrder, EachLevelKeepsItsOrder) {
  // Two levels, pushed interleaved: within a level the pool is first in, first out.
  std::vector<TaskT> queue;
  for (std::uint64_t i = 0; i < 40; ++i) queue.push_back({M::Node{static_cast<int>(3 + i % 2), i}, static_cast<int>(3 + i % 2), 0});
  const auto kept = keptAfterStop(std::move(queue));
  ASSERT_EQ(kept.size(), 40u);
  std::uint64_t last[2] = {0, 0};
  bool seen[2] = {false, false};
  for (const auto& t : kept) {
    const int level = t.depth - 3;
    if (seen[level]) {
      EXPECT_GT(t.node.path, last[level]) << "level " << t.depth << " out of order";
    }
    last[level] = t.node.path;
    seen[level] = true;
  }
}
