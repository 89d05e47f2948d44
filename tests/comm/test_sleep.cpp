// The comm thread's back-off (nextSleep, comm_options.hpp), shared with jackdaw-sim: when a sleep
// may skip the climb from minSleep, and when it must not.
#include <gtest/gtest.h>

#include "jackdaw/comm/comm_options.hpp"

using namespace std::chrono_literals;
using jackdaw::comm::CommOptions;
using jackdaw::comm::nextSleep;
using jackdaw::comm::sleepCap;

TEST(CommSleep, BusyRankWithDoorbellSleepsItsCapAtOnce) {
  CommOptions o;
  const auto cap = sleepCap(o, false, true, 0);
  ASSERT_EQ(cap, o.busyMaxSleep);
  EXPECT_EQ(nextSleep(o, o.minSleep, cap, false), o.busyMaxSleep);
}

TEST(CommSleep, PendingSendsSharedCoresOrNoDoorbellKeepTheClimb) {
  CommOptions o;
  const auto cap = sleepCap(o, false, true, 0);
  EXPECT_EQ(nextSleep(o, o.minSleep, cap, true), o.minSleep);  // a reply may need our progress
  CommOptions shared = o;
  shared.ownCores = false;  // a worker may miss the bell for a time slice
  EXPECT_EQ(nextSleep(shared, o.minSleep, cap, false), o.minSleep);
  CommOptions quiet = o;
  quiet.doorbell = false;
  const auto quietCap = sleepCap(quiet, false, true, 0);
  EXPECT_EQ(quietCap, quiet.victimMaxSleep);
  EXPECT_EQ(nextSleep(quiet, quiet.minSleep, quietCap, false), quiet.minSleep);
}

TEST(CommSleep, StealInFlightOrIdleWorkersNeverJump) {
  CommOptions o;
  const auto inflight = sleepCap(o, true, false, 0);
  EXPECT_EQ(nextSleep(o, o.minSleep, inflight, false), o.minSleep);
  const auto idle = sleepCap(o, false, false, 1);
  EXPECT_EQ(idle, o.maxSleep);
  EXPECT_EQ(nextSleep(o, o.minSleep, idle, false), o.minSleep);
  EXPECT_EQ(nextSleep(o, 80us, idle, false), 80us);
}
