// Work pools: owner/thief order, FIFO within a level, exact accounting under concurrency.
#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <map>
#include <random>
#include <thread>
#include <vector>

#include "jackdaw/core/priority_pool.hpp"
#include "jackdaw/core/work_pool.hpp"

namespace {

struct T {
  int depth = 0;
  int id = 0;
  std::uint64_t priority = 0;
};

static_assert(jackdaw::WorkPool<jackdaw::DepthPool<T>, T>);
static_assert(jackdaw::WorkPool<jackdaw::DequePool<T>, T>);
static_assert(jackdaw::WorkPool<jackdaw::PriorityPool<T>, T>);

TEST(DepthPool, OwnerTakesDeepestThiefShallowestFifoWithinLevel) {
  jackdaw::DepthPool<T> p;
  EXPECT_FALSE(p.pop());
  EXPECT_FALSE(p.stealShallowest());
  // ids: depth*10 + arrival order within the depth
  for (T t : {T{2, 20}, T{1, 10}, T{3, 30}, T{2, 21}, T{1, 11}, T{3, 31}, T{0, 0}}) p.push(t);
  EXPECT_EQ(p.size(), 7u);
  EXPECT_EQ(p.pop()->id, 30);              // deepest, first in
  EXPECT_EQ(p.stealShallowest()->id, 0);   // shallowest
  EXPECT_EQ(p.stealShallowest()->id, 10);
  EXPECT_EQ(p.pop()->id, 31);
  EXPECT_EQ(p.pop()->id, 20);
  EXPECT_EQ(p.stealShallowest()->id, 11);
  EXPECT_EQ(p.size(), 1u);
  EXPECT_EQ(p.pop()->id, 21);
  EXPECT_EQ(p.size(), 0u);
  EXPECT_FALSE(p.pop());
}

TEST(DepthPool, DeepSparseLevelsAgainstAnOrderedMap) {
  // Levels far apart and up to 100,000 deep (T3XXL's spine is 99,049), pushed and taken in a random
  // mix: every take is what an ordered map of the levels says, FIFO within a level.
  jackdaw::DepthPool<T> p;
  std::map<int, std::deque<int>> ref;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> action(0, 9);
  int next = 0;
  std::size_t held = 0;
  for (int i = 0; i < 200'000; ++i) {
    const int a = action(rng);
    if (a < 5 || ref.empty()) {
      const int band = static_cast<int>(rng() % 4);
      const int depth = band == 0 ? static_cast<int>(rng() % 64)
                        : band == 1 ? static_cast<int>(rng() % 4096)
                                    : static_cast<int>(rng() % 100'000);
      p.push(T{depth, next});
      ref[depth].push_back(next++);
      ++held;
    } else {
      const bool deepest = a < 8;
      const auto t = deepest ? p.pop() : p.stealShallowest();
      ASSERT_TRUE(t);
      auto it = deepest ? std::prev(ref.end()) : ref.begin();
      ASSERT_EQ(t->depth, it->first);
      ASSERT_EQ(t->id, it->second.front());
      it->second.pop_front();
      if (it->second.empty()) ref.erase(it);
      --held;
    }
    ASSERT_EQ(p.size(), held);
  }
}

TEST(DequePool, OwnerNewestThiefOldest) {
  jackdaw::DequePool<T> p;
  for (int i = 0; i < 4; ++i) p.push({0, i});
  EXPECT_EQ(p.pop()->id, 3);
  EXPECT_EQ(p.stealShallowest()->id, 0);
  EXPECT_EQ(p.size(), 2u);
}

TEST(PriorityPool, SmallestPriorityFirstTiesInInsertionOrder) {
  jackdaw::PriorityPool<T> p;
  p.push({1, 0, 2});
  p.push({1, 1, 0});
  p.push({1, 2, 1});
  p.push({1, 3, 0});
  p.push({1, 4, 2});
  std::vector<int> order;
  while (auto t = p.pop()) order.push_back(t->id);
  EXPECT_EQ(order, (std::vector<int>{1, 3, 2, 0, 4}));
  EXPECT_EQ(p.size(), 0u);
}

// Producers push while owners pop and thieves steal; every task must be taken exactly once and
// size() must end at zero.
template <class Pool>
void concurrentExactlyOnce() {
  constexpr int kProducers = 2, kPerProducer = 20000, kTakers = 3;
  constexpr int kTotal = kProducers * kPerProducer;
  Pool pool;
  std::vector<std::atomic<int>> taken(kTotal);
  std::atomic<int> producersDone{0};
  std::atomic<int> takenCount{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p)
    threads.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) {
        const int id = p * kPerProducer + i;
        pool.push({id % 17, id, static_cast<std::uint64_t>(id % 5)});
      }
      producersDone.fetch_add(1);
    });
  for (int k = 0; k < kTakers; ++k)
    threads.emplace_back([&, k] {
      for (;;) {
        auto t = (k == 0) ? pool.pop() : pool.stealShallowest();
        if (t) {
          taken[t->id].fetch_add(1);
          takenCount.fetch_add(1);
        } else if (producersDone.load() == kProducers && pool.size() == 0) {
          return;
        } else {
          std::this_thread::yield();
        }
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(takenCount.load(), kTotal);
  EXPECT_EQ(pool.size(), 0u);
  int wrong = 0;
  for (auto& c : taken) wrong += (c.load() != 1);
  EXPECT_EQ(wrong, 0);
}

TEST(DepthPool, ConcurrentPushPopStealTakesEveryTaskOnce) { concurrentExactlyOnce<jackdaw::DepthPool<T>>(); }
TEST(DequePool, ConcurrentPushPopStealTakesEveryTaskOnce) { concurrentExactlyOnce<jackdaw::DequePool<T>>(); }
TEST(PriorityPool, ConcurrentPushPopStealTakesEveryTaskOnce) { concurrentExactlyOnce<jackdaw::PriorityPool<T>>(); }

}  // namespace
