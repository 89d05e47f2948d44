// The seam a later MPI stage uses: a thread outside the arena injects work, steals the shallowest
// task for a "remote" thief, watches the outstanding-task count, and ends the search by release().
#include <gtest/gtest.h>

#include <thread>

#include "../core/toy_models.hpp"
#include "jackdaw/core/work_pool.hpp"
#include "jackdaw/skeletons/detail/parallel_search.hpp"

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
    std::uint64_t remoteNodes = 0;
    int stolen = 0;
    std::thread comm([&] {
      s.inject({M::Node{}, 0});
      while (s.outstandingTasks() > 0) {
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
    EXPECT_EQ(s.outstandingTasks(), 0u);
    EXPECT_EQ(s.pool().size(), 0u);
  }
}
