// The load board: publishes reach every rank's local board, bound max/min and stop reach every
// rank, and a reader racing a writer never accepts a torn record. Plus the `random` policy and
// the policy registry (docs/policies.md).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <chrono>
#include <map>
#include <thread>

#include "jackdaw/comm/board.hpp"
#include "jackdaw/comm/policies/random.hpp"
#include "jackdaw/comm/policy.hpp"

using namespace jackdaw::comm;

namespace {
// JACKDAW_TEST_BOARD_TRANSPORT=messages runs every test on the board's message transport (the
// fallback where MPI has no one-sided component); otherwise on a window.
BoardTransport transport() {
  const char* t = std::getenv("JACKDAW_TEST_BOARD_TRANSPORT");
  return t && std::string(t) == "messages" ? BoardTransport::Messages : BoardTransport::Rma;
}
int rankOf() { int r = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }
int sizeOf() { int s = 1; MPI_Comm_size(MPI_COMM_WORLD, &s); return s; }
}  // namespace

TEST(Board, PublishedRecordReachesEveryRank) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::All, transport());
  const int r = rankOf(), n = sizeOf();
  EXPECT_TRUE(b.unifiedModel());
  RankRecord mine;
  mine.workRate = 0.5 + r;
  mine.queued = 10 + r;
  mine.running = 2 * r;
  mine.idle = 3;
  b.publish(mine);
  b.settle();  // every publish is in every board (flushed, or its messages applied)
  for (int p = 0; p < n; ++p) {
    auto rec = b.read(p);
    ASSERT_TRUE(rec.has_value()) << "record of rank " << p;
    EXPECT_EQ(rec->seq % 2, 0u);
    EXPECT_GT(rec->seq, 0u);
    EXPECT_DOUBLE_EQ(rec->workRate, 0.5 + p);
    EXPECT_EQ(rec->queued, 10u + p);
    EXPECT_EQ(rec->running, 2u * p);
    EXPECT_EQ(rec->idle, 3u);
    EXPECT_GT(rec->timeNs, 0u);
  }
  EXPECT_EQ(b.publishes(), 1u);
}

TEST(Board, BoundMaxReachesEveryRank) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::All, transport());
  EXPECT_FALSE(b.hasBound());
  MPI_Barrier(MPI_COMM_WORLD);  // everyone looked at the empty board before anyone writes
  b.publishBound(7 * rankOf() - 3);
  b.settle();
  EXPECT_TRUE(b.hasBound());
  EXPECT_EQ(b.bound(), 7 * (sizeOf() - 1) - 3);
}

TEST(Board, BoundMinReachesEveryRank) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Minimise, BoardScheme::All, transport());
  EXPECT_FALSE(b.hasBound());
  MPI_Barrier(MPI_COMM_WORLD);  // everyone looked at the empty board before anyone writes
  b.publishBound(1000 - rankOf());
  b.settle();
  EXPECT_EQ(b.bound(), 1000 - (sizeOf() - 1));
}

TEST(Board, DoubleBoundsOrderLikeDoubles) {
  const double xs[] = {-1e300, -2.5, -0.0, 0.0, 1e-300, 3.25, 1e300};
  for (std::size_t i = 0; i + 1 < std::size(xs); ++i) {
    EXPECT_LE(encodeDouble(xs[i]), encodeDouble(xs[i + 1])) << xs[i];
    EXPECT_EQ(decodeDouble(encodeDouble(xs[i])), xs[i]);
  }
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Minimise, BoardScheme::All, transport());
  b.publishBound(encodeDouble(-1.5 * rankOf()));
  b.settle();
  EXPECT_EQ(decodeDouble(b.bound()), -1.5 * (sizeOf() - 1));
}

TEST(Board, StopReachesEveryRank) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::All, transport());
  EXPECT_EQ(b.stopReason(), 0);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rankOf() == sizeOf() - 1) b.publishStop(2);
  b.settle();
  EXPECT_EQ(b.stopReason(), 2);
}

// Rank 0 publishes records whose fields are all equal while a reader thread on every rank reads
// concurrently: an accepted record with unequal fields would be a torn read.
TEST(Board, ReadersNeverSeeTornRecords) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::All, transport());
  std::atomic<bool> done{false};
  std::uint64_t accepted = 0, torn = 0, lastSeq = 0, backwards = 0;
  std::thread reader([&] {
    // Reads at least once after the last publish, however the threads are scheduled.
    while (!done.load() || accepted == 0) {
      if (auto rec = b.read(0)) {
        ++accepted;
        if (rec->queued != rec->running || rec->queued != rec->idle || rec->workRate != double(rec->queued)) ++torn;
        if (rec->seq < lastSeq) ++backwards;
        lastSeq = rec->seq;
      }
      std::this_thread::yield();  // 2 cores, up to 8 busy threads: let the publisher run
    }
  });
  if (rankOf() == 0) {
    for (std::uint64_t i = 1; i <= 1000; ++i) {
      RankRecord r;
      r.queued = r.running = r.idle = i;
      r.workRate = double(i);
      b.publish(r);
    }
  }
  b.settle();
  done = true;
  reader.join();
  EXPECT_GT(accepted, 0u);
  EXPECT_EQ(torn, 0u);
  EXPECT_EQ(backwards, 0u);
  auto last = b.read(0);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->queued, 1000u);  // after the barrier every board holds the final record
}

// A timed read gives its round trip at once on a window; on messages a later call gives it (the
// read does not wait for the peer's comm turn), and only one is out per peer at a time.
TEST(Board, TimedReadMeasuresSomething) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::All, transport());
  const int peer = (rankOf() + 1) % sizeOf();
  std::optional<double> us = b.timedRead(peer);
  if (b.transport() == BoardTransport::Messages) {
    if (sizeOf() > 1) EXPECT_FALSE(us);  // the first answer is still on its way
    for (int i = 0; i < 10'000'000 && !us; ++i) {
      b.progress();  // answers the peer's probe too
      if (i % 1000 == 999) us = b.timedRead(peer);
    }
  }
  ASSERT_TRUE(us);
  EXPECT_GT(*us, 0.0);
  EXPECT_LT(*us, 1e6);
  b.settle();
}

// Scheme sample: a publish stays in the publisher's own window; a fetch reads it at the owner.
TEST(Board, SampleSchemeKeepsRecordsAtTheOwnerAndFetchReadsThem) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::Sample, transport());
  const int r = rankOf(), n = sizeOf();
  EXPECT_FALSE(b.pushes());
  RankRecord mine;
  mine.workRate = 0.25 + r;
  mine.queued = 100 + r;
  mine.running = r;
  mine.idle = 2;
  mine.pooled = 200 + r;
  b.publish(mine);
  b.settle();
  std::vector<int> others;
  for (int p = 0; p < n; ++p) {
    if (p == r) continue;
    others.push_back(p);
    auto local = b.read(p);  // nothing was pushed here
    ASSERT_TRUE(local);
    EXPECT_EQ(local->seq, 0u) << "rank " << p << "'s record reached our window without a fetch";
  }
  std::vector<std::optional<RankRecord>> got(others.size());
  b.fetch(others, got);
  for (std::size_t i = 0; i < others.size(); ++i) {
    const int p = others[i];
    ASSERT_TRUE(got[i]) << "rank " << p;
    EXPECT_EQ(got[i]->seq, 2u);
    EXPECT_DOUBLE_EQ(got[i]->workRate, 0.25 + p);
    EXPECT_EQ(got[i]->queued, 100u + p);
    EXPECT_EQ(got[i]->running, static_cast<std::uint64_t>(p));
    EXPECT_EQ(got[i]->idle, 2u);
    EXPECT_EQ(got[i]->pooled, 200u + p);
    auto latest = b.latest(p);
    ASSERT_TRUE(latest);
    EXPECT_EQ(latest->queued, 100u + p);
  }
  EXPECT_EQ(b.fetches(), 1u);
  EXPECT_EQ(b.fetchedRecords(), others.size());
  b.settle();  // nobody frees the board while a peer still reads it
}

// On the push board a fetch reads the owner's copy, which a newer publish makes newer than ours.
TEST(Board, FetchSeesTheOwnersNewestRecordOnThePushBoardToo) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::All, transport());
  const int r = rankOf(), n = sizeOf();
  RankRecord mine;
  mine.queued = 7;
  b.publish(mine);
  b.settle();
  if (n > 1) {
    const int peer = (r + 1) % n;
    std::optional<RankRecord> got[1];
    const int peers[1] = {peer};
    b.fetch(peers, got);
    ASSERT_TRUE(got[0]);
    EXPECT_EQ(got[0]->queued, 7u);
    EXPECT_EQ(got[0]->seq, b.read(peer)->seq);
  }
  b.settle();
}

// Rank 0 rewrites its record (scheme sample: local stores) as fast as it can while every other
// rank fetches it, until they all rang its doorbell: an accepted record with unequal fields
// would be a torn read.
TEST(Board, FetchesNeverSeeTornRecords) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::Sample, transport());
  std::uint64_t accepted = 0, torn = 0, lastSeq = 0, backwards = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rankOf() == 0) {
    // Until every reader has rung to say it is done: the rewriting spans all their fetches. A
    // few microseconds between rewrites, as a comm thread leaves between publishes (at most one
    // per loop): back to back, a writer on a loaded machine can fail every fetch's four tries,
    // which a fetch is allowed to do (the test then saw no record at all, about 1 run in 5).
    std::uint64_t i = 0;
    while (b.doorbell() < static_cast<std::uint64_t>(sizeOf() - 1)) {
      ++i;
      RankRecord r;
      r.queued = r.running = r.idle = r.pooled = i;
      r.workRate = double(i);
      b.publish(r);
      b.progress();  // on messages: answer the readers' gets, count their rings
      const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(5);
      while (std::chrono::steady_clock::now() < until) {
      }
    }
  } else {
    const int peers[1] = {0};
    for (int i = 0; i < 2000; ++i) {
      std::optional<RankRecord> got[1];
      b.fetch(peers, got);
      if (!got[0]) continue;
      ++accepted;
      const auto& rec = *got[0];
      if (rec.queued != rec.running || rec.queued != rec.idle || rec.queued != rec.pooled ||
          rec.workRate != double(rec.queued))
        ++torn;
      if (rec.seq < lastSeq) ++backwards;
      lastSeq = rec.seq;
    }
    b.ring(0);
    EXPECT_GT(accepted, 0u);
  }
  EXPECT_EQ(torn, 0u);
  EXPECT_EQ(backwards, 0u);
  b.settle();
}

// Every rank rings every other rank's doorbell once: each doorbell counts size - 1 rings.
TEST(Board, DoorbellCountsEveryRing) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::All, transport());
  const int r = rankOf(), n = sizeOf();
  EXPECT_EQ(b.doorbell(), 0u);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int p = 0; p < n; ++p)
    if (p != r) b.ring(p);
  b.settle();
  EXPECT_EQ(b.doorbell(), static_cast<std::uint64_t>(n - 1));
}

// Heartbeats: pushed to everyone on the push board; on the sampled board kept at home, read by
// the two watchers round the ring.
TEST(Board, HeartbeatsAndWhoWatchesWhom) {
  const int r = rankOf(), n = sizeOf();
  {
    LoadBoard all(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::All, transport());
    EXPECT_EQ(all.watched().size(), static_cast<std::size_t>(n - 1));
    all.publishHeartbeat();
    all.settle();
    for (int p = 0; p < n; ++p) EXPECT_EQ(all.heartbeat(p), 1u) << "rank " << p;
    all.settle();
  }
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::Sample, transport());
  const auto w = b.watched();
  const std::vector<int> want = n == 1 ? std::vector<int>{} : n == 2 ? std::vector<int>{(r + 1) % n}
                                                                    : std::vector<int>{(r + 1) % n, (r + 2) % n};
  EXPECT_EQ(w, want);
  for (int i = 0; i < 3; ++i) b.publishHeartbeat();
  b.settle();
  EXPECT_EQ(b.heartbeat(r), 3u);
  for (int p : w) {
    // On messages beats are pushed to the watchers; a window keeps them at home.
    if (b.heartbeatsArrive()) EXPECT_EQ(b.heartbeat(p), 3u) << "rank " << p;
    else EXPECT_EQ(b.heartbeat(p), 0u) << "rank " << p << "'s beat was pushed";
    EXPECT_EQ(b.fetchHeartbeat(p), 3u) << "rank " << p;
  }
  b.settle();
}

TEST(Board, TransportIsTheOneAskedFor) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::All, transport());
  EXPECT_EQ(b.transport(), transport());
  b.settle();
}

TEST(Board, SchemeNames) {
  EXPECT_EQ(parseBoardScheme("all"), BoardScheme::All);
  EXPECT_EQ(parseBoardScheme("sample"), BoardScheme::Sample);
  EXPECT_STREQ(boardSchemeName(BoardScheme::Sample), "sample");
  EXPECT_THROW(parseBoardScheme("gossip"), std::invalid_argument);
}

TEST(RandomPolicy, UniformOverRemoteRanksAndNeverSelf) {
  PolicyEnv ctx;
  ctx.rank = 1;
  ctx.size = 4;
  ctx.seed = 42;
  RandomPolicy p(ctx);
  std::map<int, int> seen;
  for (int i = 0; i < 30000; ++i) ++seen[p.choose()];
  EXPECT_EQ(seen.count(1), 0u);
  ASSERT_EQ(seen.size(), 3u);
  for (int v : {0, 2, 3}) EXPECT_NEAR(seen[v], 10000, 600) << "victim " << v;  // ~6 sigma
}

TEST(RandomPolicy, RetriesLastGiverAndForgetsItOnFailure) {
  PolicyEnv ctx;
  ctx.rank = 0;
  ctx.size = 5;
  RandomPolicy p(ctx);
  p.onOutcome({3, true, 1, 5.0});
  for (int i = 0; i < 10; ++i) EXPECT_EQ(p.choose(), 3);
  p.onOutcome({2, false, 0, 5.0});  // a failure elsewhere keeps the memory
  EXPECT_EQ(p.choose(), 3);
  p.onOutcome({3, false, 0, 5.0});  // a failure of the remembered rank forgets it
  EXPECT_EQ(p.remembered(), -1);
}

// --stats for random: every choice lands in the histogram as sticky or uniform, outcomes counted.
TEST(RandomPolicy, CountsChoicesAndOutcomes) {
  PolicyEnv ctx;
  ctx.rank = 0;
  ctx.size = 3;
  RandomPolicy p(ctx);
  for (int i = 0; i < 4; ++i) p.choose();  // uniform: nothing remembered yet
  p.onOutcome({2, true, 1, 5.0});
  for (int i = 0; i < 3; ++i) EXPECT_EQ(p.choose(), 2);  // sticky
  p.onOutcome({2, false, 0, 5.0});
  const auto j = p.stats();
  EXPECT_EQ(j["uniform_choices"].get<int>(), 4);
  EXPECT_EQ(j["sticky_choices"].get<int>(), 3);
  const auto h = j["targets_chosen"].get<std::vector<int>>();
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0], 0);
  EXPECT_EQ(h[1] + h[2], 7);
  EXPECT_GE(h[2], 3);
  EXPECT_EQ(j["steals_tried"].get<int>(), 2);
  EXPECT_EQ(j["steals_succeeded"].get<int>(), 1);
  EXPECT_EQ(j["steals_failed"].get<int>(), 1);
  EXPECT_FALSE(j.contains("refreshes_automatic"));  // random never refreshes
}

TEST(RandomPolicy, SeededPerRankAndReplayable) {
  PolicyEnv a{2, 8, 1, 7, nullptr}, b = a, c = a;
  c.rank = 3;
  RandomPolicy pa(a), pb(b), pc(c);
  std::vector<int> va, vb, vc;
  for (int i = 0; i < 50; ++i) {
    va.push_back(pa.choose());
    vb.push_back(pb.choose());
    vc.push_back(pc.choose());
  }
  EXPECT_EQ(va, vb);
  EXPECT_NE(va, vc);  // seed ^ rank differs
}

TEST(RandomPolicy, OneRankHasNobodyToRob) {
  PolicyEnv ctx;
  RandomPolicy p(ctx);
  EXPECT_EQ(p.choose(), -1);
}

TEST(PolicyRegistry, ByNameAndUnknownNamesTheKnownOnes) {
  PolicyEnv ctx;
  const auto reg = PolicyRegistry::builtin();
  EXPECT_NE(dynamic_cast<RandomPolicy*>(reg.make("random", ctx).get()), nullptr);
  try {
    reg.make("nope", ctx);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("random"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("nope"), std::string::npos);
  }
}

