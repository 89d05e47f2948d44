// Formula (3.1) on exact numbers, and the runtime's worker accounting.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "jackdaw/core/work_rate.hpp"
#include "jackdaw/core/worker_runtime.hpp"

namespace {

// Expected values worked out by hand (and checked with a calculator):
//   work 3, idle 1, previous 1.0: 0.65·ln(3.47)·ln(6.72) + 0.35 = 0.65·1.244155·1.905088 + 0.35 = 1.890646
//   work 1, idle 1, previous 1.0: 0.65·ln(3.22)·ln(4.72) + 0.35 = 0.65·1.169381·1.551809 + 0.35 = 1.529527
//   work 90, idle 10, previous 1.890646: 0.65·ln(3.62)·ln(102.72) + 0.35·1.890646 = 4.535048
TEST(WorkRate, FormulaOnExactNumbers) {
  EXPECT_NEAR(jackdaw::nextWorkRate(1.0, 3, 1), 1.890646, 1e-6);
  EXPECT_NEAR(jackdaw::nextWorkRate(1.0, 1, 1), 1.529527, 1e-6);
  EXPECT_NEAR(jackdaw::nextWorkRate(1.8906457165847956, 90, 10), 4.535048, 1e-6);
}

TEST(WorkRate, ConstantsAreParameters) {
  jackdaw::WorkRateParams p{0.5, 0.5, 1.0};
  // 0.5·ln(1 + 0.5)·ln(1 + 2) + 0.5·2 = 0.5·0.405465·1.098612 + 1 = 1.222724
  EXPECT_NEAR(jackdaw::nextWorkRate(2.0, 1, 1, p), 1.222724, 1e-6);
}

TEST(WorkerAccount, CycleRecordsIdleThenWork) {
  jackdaw::WorkerAccount a(100.0);  // timer starts at t = 100 µs
  EXPECT_EQ(a.workRate(), 1.0);
  EXPECT_EQ(a.idleTime(), 1.0);  // initial times 1 µs
  EXPECT_EQ(a.workTime(), 1.0);
  a.startWork(101.0);  // idle 1 µs
  EXPECT_EQ(a.state(), jackdaw::WorkerState::Working);
  a.endWork(104.0);    // worked 3 µs
  EXPECT_EQ(a.state(), jackdaw::WorkerState::Idle);
  EXPECT_EQ(a.idleTime(), 1.0);
  EXPECT_EQ(a.workTime(), 3.0);
  EXPECT_NEAR(a.workRate(), 1.890646, 1e-6);
  a.startWork(114.0);  // idle 10
  a.endWork(204.0);    // work 90
  EXPECT_NEAR(a.workRate(), 4.535048, 1e-6);
  EXPECT_EQ(a.tasks(), 2u);
  EXPECT_EQ(a.workTotal(), 93.0);
  EXPECT_EQ(a.idleTotal(), 11.0);
  a.finish(210.0);
  EXPECT_EQ(a.idleTotal(), 17.0);
}

TEST(WorkerRuntime, RunsEveryTaskAndCountsWorkers) {
  for (int w : {1, 2, 4}) {
    jackdaw::WorkerRuntime rt({.threads = w});
    EXPECT_EQ(rt.workers(), w);
    std::atomic<int> done{0};
    std::atomic<bool> badIndex{false};
    rt.runAndWait([&] {
      for (int i = 0; i < 100; ++i)
        rt.spawn([&] {
          jackdaw::WorkerRuntime::TaskScope t(rt);
          const int me = t.worker();
          if (me < 0 || me >= w) badIndex = true;
          done.fetch_add(1);
        });
    });
    EXPECT_EQ(done.load(), 100);
    EXPECT_FALSE(badIndex.load());
    EXPECT_EQ(rt.runningTasks(), 0);
    std::uint64_t tasks = 0;
    for (int i = 0; i < w; ++i) tasks += rt.account(i).tasks();
    EXPECT_EQ(tasks, 100u);
    EXPECT_GT(rt.meanWorkRate(), 0.0);
  }
}

TEST(WorkerRuntime, DefaultWorkersFollowTheCpuSet) {
  jackdaw::WorkerRuntime rt;
  EXPECT_EQ(rt.workers(), jackdaw::CpuSet::current().count());
  EXPECT_GE(rt.workers(), 1);
}

// The seam a comm thread uses: hold the arena open, inject from outside, then release.
TEST(WorkerRuntime, HoldInjectRelease) {
  jackdaw::WorkerRuntime rt({.threads = 2});
  std::atomic<int> ran{0};
  rt.hold();
  std::thread outside([&] {
    for (int i = 0; i < 10; ++i) rt.inject([&] { ran.fetch_add(1); });
    while (ran.load() < 10) std::this_thread::yield();
    rt.release();
  });
  rt.runAndWait([] {});
  outside.join();
  EXPECT_EQ(ran.load(), 10);
}

TEST(WorkerRuntime, BindKeepsResults) {
  jackdaw::WorkerRuntime rt({.threads = 2, .bind = true});
  std::atomic<int> done{0};
  rt.runAndWait([&] {
    for (int i = 0; i < 10; ++i) rt.spawn([&] { done.fetch_add(1); });
  });
  EXPECT_EQ(done.load(), 10);
}

}  // namespace

// One worker: no oneTBB arena. Every task, those spawned and those injected from another thread,
// runs on the thread that called runAndWait (currentWorker() 0 there, -1 elsewhere); injected
// tasks run in the order they came; a throwing task's exception comes out of runAndWait and the
// tasks not yet started are dropped, as in a oneTBB task_group.
TEST(WorkerRuntime, OneWorkerRunsEverythingOnTheWaitingThread) {
  jackdaw::WorkerRuntime rt({.threads = 1});
  const auto caller = std::this_thread::get_id();
  std::atomic<int> ran{0};
  std::atomic<bool> elsewhere{false}, badIndex{false};
  std::vector<int> order;
  auto check = [&] {
    if (std::this_thread::get_id() != caller) elsewhere = true;
    if (rt.currentWorker() != 0) badIndex = true;
  };
  EXPECT_EQ(rt.currentWorker(), -1);
  rt.hold();
  std::thread outside([&] {
    EXPECT_EQ(rt.currentWorker(), -1);
    for (int i = 0; i < 20; ++i)
      rt.inject([&, i] {
        check();
        order.push_back(i);
        rt.spawn([&] {
          check();
          ran.fetch_add(1);
        });
        ran.fetch_add(1);
      });
    while (ran.load() < 40) std::this_thread::yield();
    rt.release();
  });
  rt.runAndWait([&] {
    check();
    jackdaw::WorkerRuntime::TaskScope t(rt);
    EXPECT_EQ(t.worker(), 0);
  });
  outside.join();
  EXPECT_EQ(ran.load(), 40);
  EXPECT_FALSE(elsewhere.load());
  EXPECT_FALSE(badIndex.load());
  ASSERT_EQ(order.size(), 20u);
  EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
  EXPECT_EQ(rt.account(0).tasks(), 1u);

  std::atomic<int> after{0};
  EXPECT_THROW(rt.runAndWait([&] {
                 rt.spawn([&] { after.fetch_add(1); });
                 rt.spawn([] { throw std::runtime_error("model failed"); });
               }),
               std::runtime_error);
  EXPECT_EQ(after.load(), 0);  // spawned before the throw, run after it: dropped
  rt.runAndWait([&] { rt.spawn([&] { after.fetch_add(1); }); });  // the runtime works on
  EXPECT_EQ(after.load(), 1);
}
