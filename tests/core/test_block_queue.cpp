// BlockQueue: sequential semantics against a std::deque model, object lifetimes, and an owner
// with 1 or 3 thieves where every value must be taken exactly once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <deque>
#include <iterator>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "jackdaw/core/block_queue.hpp"

using jackdaw::BlockQueue;

namespace {

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) || !defined(NDEBUG)
constexpr std::uint64_t kTotalOps = 1'000'000;  // sanitizer or debug build
#else
constexpr std::uint64_t kTotalOps = 10'000'000;
#endif

// Counts live objects; holds a vector so that it is not trivially copyable.
struct Counted {
  static inline std::atomic<long> live{0};
  std::vector<int> payload;
  explicit Counted(int v) : payload{v, v} { live.fetch_add(1); }
  Counted(Counted&& o) noexcept : payload(std::move(o.payload)) { live.fetch_add(1); }
  Counted& operator=(Counted&&) noexcept = default;
  Counted(const Counted&) = delete;
  ~Counted() { live.fetch_sub(1); }
  int value() const { return payload.at(0); }
};

}  // namespace

TEST(BlockQueue, PopIsLifoAcrossBlocks) {
  BlockQueue<int, 4, 8> q;
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(q.push(int{i}));
  EXPECT_EQ(q.size(), 30u);
  for (int i = 29; i >= 0; --i) {
    auto v = q.pop();
    ASSERT_TRUE(v);
    EXPECT_EQ(*v, i);
  }
  EXPECT_FALSE(q.pop());
  EXPECT_TRUE(q.empty());
}

TEST(BlockQueue, StealIsFifoOverGrantedBlocks) {
  BlockQueue<int, 4, 8> q;
  for (int i = 0; i < 14; ++i) ASSERT_TRUE(q.push(int{i}));
  // Blocks 0..2 (values 0..11) are granted; the owner's block (12, 13) is not stealable.
  for (int i = 0; i < 12; ++i) {
    auto v = q.steal();
    ASSERT_TRUE(v);
    EXPECT_EQ(*v, i);
  }
  EXPECT_FALSE(q.steal());
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(*q.pop(), 13);
  EXPECT_EQ(*q.pop(), 12);
  EXPECT_FALSE(q.pop());
}

TEST(BlockQueue, PopTakesBackAPartlyStolenBlock) {
  BlockQueue<int, 4, 8> q;
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(q.push(int{i}));  // blocks 0, 1 granted; 8 owned
  EXPECT_EQ(*q.steal(), 0);
  EXPECT_EQ(*q.pop(), 8);
  for (int i = 7; i >= 1; --i) EXPECT_EQ(*q.pop(), i);  // takeover of block 1, then block 0
  EXPECT_FALSE(q.pop());
  EXPECT_FALSE(q.steal());
  EXPECT_TRUE(q.empty());
}

TEST(BlockQueue, FullPushFailsAndKeepsTheTask) {
  BlockQueue<std::unique_ptr<int>, 4, 4> q;
  for (int i = 0; i < 16; ++i) ASSERT_TRUE(q.push(std::make_unique<int>(i)));
  auto extra = std::make_unique<int>(99);
  EXPECT_FALSE(q.push(std::move(extra)));
  ASSERT_TRUE(extra);  // not moved from
  EXPECT_EQ(*extra, 99);
  EXPECT_EQ(q.size(), 16u);
  EXPECT_EQ(**q.steal(), 0);  // the oldest block frees a slot once stolen dry
  EXPECT_FALSE(q.push(std::move(extra)));
  for (int i = 1; i < 4; ++i) EXPECT_EQ(**q.steal(), i);
  EXPECT_TRUE(q.push(std::move(extra)));
  EXPECT_EQ(**q.pop(), 99);
}

// grant() hands the owner's partly filled block to thieves at once; pop takes it back.
TEST(BlockQueue, GrantExposesAPartlyFilledBlock) {
  BlockQueue<int, 8, 4> q;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(q.push(int{i}));
  EXPECT_FALSE(q.steal());  // the owner's current block
  ASSERT_TRUE(q.grant());
  EXPECT_EQ(*q.steal(), 0);
  ASSERT_TRUE(q.push(int{3}));
  EXPECT_EQ(*q.pop(), 3);
  EXPECT_EQ(*q.pop(), 2);  // taken back from the granted block
  EXPECT_FALSE(q.steal());
  EXPECT_EQ(*q.pop(), 1);
  EXPECT_FALSE(q.pop());
  EXPECT_TRUE(q.empty());
  // One task per block: every grant uses a block, so the ring fills after `Blocks` of them.
  int granted = 0;
  for (int i = 0; i < 10; ++i) {
    if (!q.push(int{100 + i})) break;
    if (!q.grant()) break;
    ++granted;
  }
  EXPECT_GE(granted, 3);
  for (int i = 0; i < granted; ++i) EXPECT_EQ(*q.steal(), 100 + i);
}

// Random owner pushes/pops/grants and steals over many trips round the ring, checked against a model.
TEST(BlockQueue, MatchesDequeModelOverManyWrapArounds) {
  BlockQueue<int, 4, 4> q;
  std::deque<int> model;
  std::mt19937 rng(7);
  int next = 0;
  std::uint64_t pushes = 0, pops = 0, steals = 0;
  for (int step = 0; step < 200'000; ++step) {
    // Drift between filling and draining phases so that the ring fills, empties and wraps.
    const bool filling = (step / 500) % 2 == 0;
    const unsigned r = rng() % 10;
    if (r < (filling ? 6u : 2u)) {
      if (q.push(int{next})) {
        model.push_back(next);
        ++pushes;
      } else {
        EXPECT_GE(model.size(), 16u - 3u * 4u);  // full only with most of the ring in use
      }
      ++next;
    } else if (r == 6 && step % 3 == 0) {
      if (q.grant() && !model.empty()) {
        auto v = q.steal();  // everything pushed so far is stealable now
        ASSERT_TRUE(v.has_value());
        ASSERT_EQ(*v, model.front());
        model.pop_front();
        ++steals;
      }
    } else if (r < 8) {
      auto v = q.pop();
      ASSERT_EQ(v.has_value(), !model.empty());
      if (v) {
        ASSERT_EQ(*v, model.back());
        model.pop_back();
        ++pops;
      }
    } else {
      auto v = q.steal();
      if (v) {
        ASSERT_FALSE(model.empty());
        ASSERT_EQ(*v, model.front());
        model.pop_front();
        ++steals;
      }
    }
    ASSERT_EQ(q.size(), model.size());
  }
  EXPECT_GT(pushes, 50'000u);
  EXPECT_GT(pops, 10'000u);
  EXPECT_GT(steals, 10'000u);
  EXPECT_GT(static_cast<std::uint64_t>(next), 16u * 1000u);  // many wrap-arounds
}

TEST(BlockQueue, NonTrivialTasksAreDestroyedExactlyOnce) {
  Counted::live = 0;
  std::vector<Counted> half;
  {
    BlockQueue<Counted, 4, 4> q;
    for (int i = 0; i < 14; ++i) ASSERT_TRUE(q.push(Counted(i)));
    EXPECT_EQ(Counted::live.load(), 14);
    {
      auto a = q.steal();
      auto b = q.pop();
      ASSERT_TRUE(a && b);
      EXPECT_EQ(a->value(), 0);
      EXPECT_EQ(b->value(), 13);
      EXPECT_EQ(Counted::live.load(), 14);
    }
    EXPECT_EQ(Counted::live.load(), 12);
    for (int i = 0; i < 3; ++i) q.pop();
    EXPECT_EQ(Counted::live.load(), 9);
    EXPECT_EQ(q.stealHalf(std::back_inserter(half)), 4u);  // half of 9, oldest first
    ASSERT_EQ(half.size(), 4u);
    EXPECT_EQ(half.front().value(), 1);
    EXPECT_EQ(half.back().value(), 4);
    EXPECT_EQ(q.size(), 5u);
  }  // the queue's destructor destroys the 5 left
  EXPECT_EQ(Counted::live.load(), 4);
  half.clear();
  EXPECT_EQ(Counted::live.load(), 0);
}

namespace {

// One owner (this thread) pushes values 0..n-1 and pops; `thieves` threads steal. Every value
// must be taken exactly once. `phases`: alternate push-heavy and pop-heavy runs, so that the owner
// keeps popping back into blocks thieves are stealing from (takeover races).
void ownerAndThieves(int thieves, bool phases, bool grants = false, bool thievesDrain = false) {
  const std::uint64_t n = kTotalOps / 2;  // each value: one push, one pop or steal
  std::vector<std::atomic<std::uint8_t>> taken(n);
  std::atomic<std::uint64_t> duplicates{0}, stolen{0};
  std::atomic<bool> stop{false};
  BlockQueue<std::uint64_t, 16, 8> q;
  auto take = [&](std::uint64_t v) {
    if (v >= n || taken[v].exchange(1, std::memory_order_relaxed) != 0) duplicates.fetch_add(1);
  };

  std::vector<std::thread> ts;
  for (int t = 0; t < thieves; ++t)
    ts.emplace_back([&] {
      std::uint64_t mine = 0;
      while (!stop.load(std::memory_order_acquire)) {
        if (auto v = q.steal()) {
          take(*v);
          ++mine;
        } else {
          std::this_thread::yield();
        }
      }
      stolen.fetch_add(mine);
    });

  std::mt19937 rng(42);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::uint64_t next = 0, step = 0;
  while (next < n) {
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "owner loop past its deadline at value " << next;
      break;
    }
    for (int k = 0; k < 1024 && next < n; ++k, ++step) {
      // Without phases: 2 pushes to 1 pop. With phases: 4096-step runs of 90% and 20% pushes.
      const unsigned pushPct = phases ? ((step / 4096) % 2 == 0 ? 90u : 20u) : 67u;
      if (rng() % 100 < pushPct) {
        if (q.push(std::uint64_t{next})) {
          ++next;
          if (grants && rng() % 4 == 0) q.grant();  // as a split for a hungry thief does
          continue;
        }
      }
      if (auto v = q.pop()) take(*v);
    }
  }
  if (thievesDrain) {
    // The owner's last act is a grant; from then on only thieves take. Every task must reach
    // them: a granted block the thieves' head had skipped would strand its tasks (as a worker
    // whose tokens others took never pops again).
    const auto drainBy = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!q.grant() && std::chrono::steady_clock::now() < drainBy) std::this_thread::yield();  // next block busy
    while (!q.empty() && std::chrono::steady_clock::now() < drainBy) std::this_thread::yield();
    EXPECT_TRUE(q.empty()) << q.size() << " tasks no thief could reach after the owner's last grant";
  }
  while (auto v = q.pop()) take(*v);  // what thieves left, taken back block by block
  stop.store(true, std::memory_order_release);
  for (auto& t : ts) t.join();

  EXPECT_EQ(duplicates.load(), 0u);
  std::uint64_t missing = 0;
  for (std::uint64_t v = 0; v < next; ++v) missing += taken[v].load(std::memory_order_relaxed) == 0;
  EXPECT_EQ(missing, 0u);
  EXPECT_TRUE(q.empty());
  std::printf("  values %llu, stolen %llu (%.2f%%)\n", static_cast<unsigned long long>(n),
              static_cast<unsigned long long>(stolen.load()),
              100.0 * static_cast<double>(stolen.load()) / static_cast<double>(n));
}

}  // namespace

TEST(BlockQueueConcurrent, OneThief) { ownerAndThieves(1, false); }
TEST(BlockQueueConcurrent, ThreeThieves) { ownerAndThieves(3, false); }
TEST(BlockQueueConcurrent, OneThiefPhases) { ownerAndThieves(1, true); }
TEST(BlockQueueConcurrent, ThreeThievesPhases) { ownerAndThieves(3, true); }
TEST(BlockQueueConcurrent, ThreeThievesGrants) { ownerAndThieves(3, true, true); }
TEST(BlockQueueConcurrent, ThievesAloneDrainWhatWasGranted) {
  for (int round = 0; round < 4; ++round) ownerAndThieves(3, true, true, true);
}
