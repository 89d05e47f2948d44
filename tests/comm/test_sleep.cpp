// The comm thread's back-off (nextSleep, comm_options.hpp), shared with jackdaw-sim: when a sleep
// may skip the climb from minSleep, and when it must not.
#include <gtest/gtest.h>

#include "jackdaw/comm/comm_options.hpp"

using namespace std::chrono_literals;
using jackdaw::comm::CommOptions;
using jackdaw::comm::nextSleep;

// nextSleep's arguments after the options and the last sleep: its own steal in flight, tasks held,
// idle workers, sends pending.
TEST(CommSleep, BusyRankWithDoorbellSleepsItsCapAtOnce) {
  CommOptions o;
  const auto s = nextSleep(o, o.minSleep, false, true, 0, false);
  ASSERT_EQ(s.cap, o.busyMaxSleep);
  EXPECT_EQ(s.now, o.busyMaxSleep);
}

TEST(CommSleep, PendingSendsSharedCoresOrNoDoorbellKeepTheClimb) {
  CommOptions o;
  EXPECT_EQ(nextSleep(o, o.minSleep, false, true, 0, true).now, o.minSleep);  // a reply may need our progress
  CommOptions shared = o;
  shared.ownCores = false;  // a worker may miss the bell for a time slice
  EXPECT_EQ(nextSleep(shared, o.minSleep, false, true, 0, false).now, o.minSleep);
  CommOptions quiet = o;
  quiet.doorbell = false;
  const auto s = nextSleep(quiet, quiet.minSleep, false, true, 0, false);
  EXPECT_EQ(s.cap, quiet.victimMaxSleep);
  EXPECT_EQ(s.now, quiet.minSleep);
}

TEST(CommSleep, StealInFlightOrIdleWorkersNeverJump) {
  CommOptions o;
  EXPECT_EQ(nextSleep(o, o.minSleep, true, false, 0, false).now, o.minSleep);
  const auto idle = nextSleep(o, o.minSleep, false, false, 1, false);
  EXPECT_EQ(idle.cap, o.maxSleep);
  EXPECT_EQ(idle.now, o.minSleep);
  EXPECT_EQ(nextSleep(o, 80us, false, false, 1, false).now, 80us);
}

// On the message transport a ring would arrive at the victim's own comm turn, after the wake it
// was for: forTransport turns the doorbell off there, whatever was asked, and a busy victim
// holding tasks climbs to maxSleep instead of sleeping busyMaxSleep at once.
TEST(CommSleep, NoDoorbellOnTheMessageTransport) {
  using jackdaw::comm::BoardTransport;
  using jackdaw::comm::forTransport;
  CommOptions o;
  EXPECT_TRUE(forTransport(o, BoardTransport::Rma).doorbell);
  EXPECT_EQ(forTransport(o, BoardTransport::Rma).victimMaxSleep, o.victimMaxSleep);
  const CommOptions msgs = forTransport(o, BoardTransport::Messages);
  EXPECT_FALSE(msgs.doorbell);
  const auto s = nextSleep(msgs, msgs.minSleep, false, true, 0, false);
  EXPECT_EQ(s.cap, o.maxSleep);
  EXPECT_EQ(s.now, msgs.minSleep);  // the climb, not the jump to busyMaxSleep
}
