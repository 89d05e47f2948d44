// The steal protocol (steal_protocol.hpp) without MPI: scripted sequences on a fake clock, a fake
// board, a scripted policy and a port that records what the protocol sends. These are the rules
// CommThread and jackdaw-sim both run.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "jackdaw/comm/local_work.hpp"
#include "jackdaw/comm/steal_protocol.hpp"
#include "jackdaw/comm/wire.hpp"

using namespace std::chrono_literals;
using namespace jackdaw::comm;

namespace {

struct Sent {
  bool request;  // else an answer
  int to;
  StealRequest q;
  std::uint32_t count = 0;
  std::optional<int> redirect;
};

class FakePort final : public StealPort {
 public:
  std::uint64_t now = 0;
  bool stop = false, work = false, splits = false;
  std::deque<std::uint32_t> gives;  // what take() hands out, in turn (then 0)
  int takes = 0;
  std::vector<Sent> sent;
  std::uint64_t nowNs() override { return now; }
  bool stopped() override { return stop; }
  std::uint32_t take(int, const StealRequest&) override {
    ++takes;
    if (gives.empty()) return 0;
    const auto n = gives.front();
    gives.pop_front();
    return n;
  }
  bool holdsWork() override { return work; }
  bool splitsForThieves() override { return splits; }
  void sendAnswer(int thief, const StealRequest& q, std::uint32_t count, std::optional<int> redirect) override {
    sent.push_back({false, thief, q, count, redirect});
  }
  void sendRequest(int victim, const StealRequest& q, bool) override { sent.push_back({true, victim, q, 0, std::nullopt}); }
};

class FakeBoard final : public BoardView {
 public:
  std::map<int, RankRecord> records;
  std::optional<RankRecord> read(int r) const override {
    auto it = records.find(r);
    return it == records.end() ? std::nullopt : std::optional(it->second);
  }
};

// Chooses the victims it is given, in turn; counts what it is told.
class ScriptedPolicy final : public VictimPolicy {
 public:
  std::deque<int> victims;
  int chooses = 0, hungry = 0, outcomes = 0, refreshes = 0;
  std::int64_t backoffUs = kOwnBackoff;
  std::uint64_t refreshEveryNs = kNever;
  int choose() override {
    ++chooses;
    if (victims.empty()) return -1;
    const int v = victims.front();
    victims.pop_front();
    return v;
  }
  std::int64_t onOutcome(const StealOutcome&) override {
    ++outcomes;
    return backoffUs;
  }
  void onHungry() override { ++hungry; }
  std::uint64_t refresh(std::uint64_t nowNs) override {
    ++refreshes;
    return refreshEveryNs == kNever ? kNever : nowNs + refreshEveryNs;
  }
};

struct Rig {
  CommOptions o;
  FakePort port;
  FakeBoard board;
  ScriptedPolicy policy;
  CommStats stats;
  std::optional<StealProtocol> p;
  Rig(int rank, int size, CommOptions opts = {}) : o(opts) { p.emplace(o, rank, size, policy, board, stats, port); }
  std::uint64_t us(std::uint64_t n) const { return n * 1000; }
};

}  // namespace

// A refused thief backs off: minSleep after the first refusal, doubling to stealRetryMax; work
// resets it, and the next request may go at once.
TEST(StealProtocol, RefusalsBackOffDoublingToTheCap) {
  CommOptions o;
  o.minSleep = 20us;
  o.stealRetryMax = 100us;
  Rig r(0, 4, o);
  r.policy.victims = {1, 2, 3, 1, 2, 3, 1, 2};
  const std::uint64_t expected[] = {20, 40, 80, 100, 100};
  for (std::uint64_t wait : expected) {
    ASSERT_TRUE(r.p->onTurn(r.port.now, true));
    const int victim = r.port.sent.back().to;
    r.p->onReply(victim, 0, std::nullopt, false);
    r.port.now += r.us(wait) - 1;
    EXPECT_FALSE(r.p->onTurn(r.port.now, true)) << "before the back-off of " << wait << " us has passed";
    r.port.now += 1;
  }
  ASSERT_TRUE(r.p->onTurn(r.port.now, true));
  r.p->onReply(r.port.sent.back().to, 3, std::nullopt, false);
  EXPECT_TRUE(r.p->onTurn(r.port.now, true)) << "work resets the back-off";
  EXPECT_EQ(r.stats.stealsRefused, 5u);
  EXPECT_EQ(r.stats.stealsGranted, 1u);
  EXPECT_EQ(r.stats.tasksReceived, 3u);
  EXPECT_EQ(r.policy.outcomes, 6);
}

// A policy that owns its pacing (onOutcome >= 0) sets the next try itself.
TEST(StealProtocol, APolicysOwnBackOffWins) {
  Rig r(0, 3);
  r.policy.victims = {1, 2};
  r.policy.backoffUs = 0;  // retry at once
  ASSERT_TRUE(r.p->onTurn(0, true));
  r.p->onReply(1, 0, std::nullopt, false);
  EXPECT_TRUE(r.p->onTurn(0, true));
}

// The victim's refusal rule: nothing to take is a refusal (no redirect for a plain steal), counted
// as a broken promise when the thief's board said there was work.
TEST(StealProtocol, NothingToTakeIsARefusal) {
  Rig r(1, 4);
  StealRequest q;
  q.seen = true;
  q.queued = 5;
  r.p->onRequest(2, q, false);
  ASSERT_EQ(r.port.sent.size(), 1u);
  EXPECT_FALSE(r.port.sent[0].request);
  EXPECT_EQ(r.port.sent[0].to, 2);
  EXPECT_EQ(r.port.sent[0].count, 0u);
  EXPECT_FALSE(r.port.sent[0].redirect);
  EXPECT_EQ(r.stats.promisedRefused, 1u);
  r.port.gives = {4};
  r.p->onRequest(3, StealRequest{}, false);
  EXPECT_EQ(r.port.sent[1].count, 4u);
  EXPECT_EQ(r.stats.unpromisedGranted, 1u);
  EXPECT_EQ(r.stats.tasksSent, 4u);
  // While draining nothing is taken: the search is over.
  r.port.gives = {4};
  r.p->onRequest(3, StealRequest{}, true);
  EXPECT_EQ(r.port.sent[2].count, 0u);
  EXPECT_EQ(r.port.takes, 2);
}

// A steal request with nothing to give waits for the split a busy worker makes for it (take() asked
// for it): answered with that split at the next serveHeld; refused once stealHoldMax has passed,
// once no worker would split, or while draining; never held with stealHoldMax 0.
TEST(StealProtocol, StealRequestsWaitForABusyWorkersSplit) {
  CommOptions o;
  o.stealHoldMax = 500us;
  Rig r(1, 4, o);
  r.port.splits = true;
  r.p->onRequest(2, StealRequest{}, false);
  EXPECT_TRUE(r.port.sent.empty());
  EXPECT_TRUE(r.p->holdsRequests());
  EXPECT_EQ(r.stats.stealsHeld, 1u);
  EXPECT_FALSE(r.p->serveHeld(false));  // no split yet
  r.port.gives = {16};
  r.port.now = r.us(30);
  EXPECT_TRUE(r.p->serveHeld(false));
  ASSERT_EQ(r.port.sent.size(), 1u);
  EXPECT_EQ(r.port.sent[0].to, 2);
  EXPECT_EQ(r.port.sent[0].count, 16u);
  EXPECT_EQ(r.stats.heldGranted, 1u);
  EXPECT_DOUBLE_EQ(r.stats.stealHoldUsTotal, 30.0);
  EXPECT_FALSE(r.p->holdsRequests());

  // Past stealHoldMax: refused, and a plain steal names nowhere else to go.
  r.p->onRequest(3, StealRequest{}, false);
  r.port.now += r.us(499);
  EXPECT_FALSE(r.p->serveHeld(false));
  r.port.now += r.us(1);
  EXPECT_TRUE(r.p->serveHeld(false));
  ASSERT_EQ(r.port.sent.size(), 2u);
  EXPECT_EQ(r.port.sent[1].count, 0u);
  EXPECT_FALSE(r.port.sent[1].redirect);

  // The busy worker finished (nothing will split): refused at the next look.
  r.p->onRequest(2, StealRequest{}, false);
  r.port.splits = false;
  EXPECT_TRUE(r.p->serveHeld(false));
  EXPECT_EQ(r.port.sent.back().count, 0u);

  // Draining: refused at once, nothing taken.
  r.port.splits = true;
  const int takes = r.port.takes;
  r.p->onRequest(3, StealRequest{}, true);
  EXPECT_EQ(r.port.sent.back().count, 0u);
  EXPECT_EQ(r.port.takes, takes);
  EXPECT_EQ(r.stats.stealsHeld, 3u);
  EXPECT_EQ(r.stats.heldGranted, 1u);

  // stealHoldMax 0: the rule is off.
  CommOptions off;
  off.stealHoldMax = 0us;
  Rig z(1, 4, off);
  z.port.splits = true;
  z.p->onRequest(2, StealRequest{}, false);
  ASSERT_EQ(z.port.sent.size(), 1u);
  EXPECT_EQ(z.port.sent[0].count, 0u);
  EXPECT_EQ(z.stats.stealsHeld, 0u);
}

// A seed request with nothing to give is held while the victim has work, and answered with work
// as soon as there is some; held past seedHoldMax it is refused, naming the victim's own parent.
TEST(StealProtocol, SeedRequestsAreHeldThenAnsweredOrRedirected) {
  CommOptions o;
  o.seedArity = 2;
  o.seedHoldMax = 5000us;
  Rig r(3, 8, o);  // parent (3 - 1) / 2 = 1
  r.port.work = true;
  StealRequest q;
  q.seed = true;
  r.p->onRequest(7, q, false);
  EXPECT_TRUE(r.port.sent.empty());
  EXPECT_TRUE(r.p->holdsRequests());
  EXPECT_EQ(r.stats.seedsHeld, 1u);
  r.port.now = r.us(1000);
  EXPECT_FALSE(r.p->serveHeld(false));
  r.port.gives = {2};
  r.port.now = r.us(2000);
  EXPECT_TRUE(r.p->serveHeld(false));
  ASSERT_EQ(r.port.sent.size(), 1u);
  EXPECT_EQ(r.port.sent[0].count, 2u);
  EXPECT_FALSE(r.p->holdsRequests());

  r.p->onRequest(8, q, false);
  r.port.now += r.us(5000);
  EXPECT_TRUE(r.p->serveHeld(false));
  ASSERT_EQ(r.port.sent.size(), 2u);
  EXPECT_EQ(r.port.sent[1].count, 0u);
  EXPECT_EQ(r.port.sent[1].redirect, std::optional<int>(1));

  // Without work, a victim still waiting for its own seed holds (work is on its way) …
  r.port.work = false;
  r.p->onRequest(9, q, false);
  EXPECT_EQ(r.port.sent.size(), 2u);
  EXPECT_TRUE(r.p->holdsRequests());
  // … and once its own seed is answered, it refuses at once.
  ASSERT_TRUE(r.p->onTurn(r.port.now, true));
  EXPECT_EQ(r.port.sent.back().to, 1);
  r.p->onReply(1, 1, std::nullopt, false);
  EXPECT_FALSE(r.p->seeding());
  r.p->serveHeld(false);
  ASSERT_EQ(r.port.sent.size(), 4u);
  EXPECT_EQ(r.port.sent[3].to, 9);
  EXPECT_EQ(r.port.sent[3].count, 0u);
  r.p->onRequest(10, q, false);
  EXPECT_EQ(r.port.sent.size(), 5u);
}

TEST(StealProtocol, RedirectsCanBeSwitchedOff) {
  CommOptions o;
  o.seedArity = 2;
  o.seedRedirect = false;
  Rig r(3, 8, o);
  ASSERT_TRUE(r.p->onTurn(0, true));  // its own seed, answered with work
  r.p->onReply(1, 1, std::nullopt, false);
  StealRequest q;
  q.seed = true;
  r.p->onRequest(7, q, false);
  ASSERT_EQ(r.port.sent.size(), 2u);
  EXPECT_EQ(r.port.sent[1].count, 0u);
  EXPECT_FALSE(r.port.sent[1].redirect);
}

// The thief's seed phase: its first request goes to its tree parent without asking the policy; a
// refusal naming a rank sends the next one there at once; a refusal naming none ends the phase.
TEST(StealProtocol, SeedPhaseClimbsTheTreeThenHandsOverToThePolicy) {
  CommOptions o;
  o.seedArity = 2;
  Rig r(5, 8, o);  // parent 2
  r.policy.victims = {6};
  ASSERT_TRUE(r.p->onTurn(0, true));
  EXPECT_EQ(r.port.sent.back().to, 2);
  EXPECT_TRUE(r.port.sent.back().q.seed);
  EXPECT_EQ(r.policy.chooses, 0);
  r.p->onReply(2, 0, 0, false);
  EXPECT_EQ(r.stats.seedRedirects, 1u);
  ASSERT_TRUE(r.p->onTurn(0, true)) << "a redirect is followed at once";
  EXPECT_EQ(r.port.sent.back().to, 0);
  r.p->onReply(0, 0, std::nullopt, false);
  EXPECT_FALSE(r.p->seeding());
  ASSERT_TRUE(r.p->onTurn(0, true));
  EXPECT_EQ(r.port.sent.back().to, 6);
  EXPECT_FALSE(r.port.sent.back().q.seed);
  EXPECT_EQ(r.policy.chooses, 1);
  EXPECT_EQ(r.policy.outcomes, 0) << "seed answers are not the policy's";
}

// A granted seed request ends the phase too.
TEST(StealProtocol, WorkEndsTheSeedPhase) {
  CommOptions o;
  o.seedArity = 3;
  Rig r(4, 8, o);  // parent 1
  ASSERT_TRUE(r.p->onTurn(0, true));
  r.p->onReply(1, 2, std::nullopt, false);
  EXPECT_FALSE(r.p->seeding());
  EXPECT_EQ(r.stats.seedsGranted, 1u);
}

// A request asks for half when stealHalf is on; a victim gives tasksPerSteal of its spare tasks.
TEST(StealProtocol, StealHalfSizes) {
  for (bool half : {true, false}) {
    CommOptions o;
    o.stealHalf = half;
    Rig r(0, 2, o);
    r.policy.victims = {1};
    ASSERT_TRUE(r.p->onTurn(0, true));
    EXPECT_EQ(r.port.sent.back().q.half, half);
  }
  EXPECT_EQ(tasksPerSteal(0, true), 0u);
  EXPECT_EQ(tasksPerSteal(1, true), 1u);
  EXPECT_EQ(tasksPerSteal(2, true), 1u);
  EXPECT_EQ(tasksPerSteal(7, true), 3u);
  EXPECT_EQ(tasksPerSteal(8, true), 4u);
  EXPECT_EQ(tasksPerSteal(7, false), 1u);
  EXPECT_EQ(stealableCount(5, 2), 3u);  // the rank's own idle workers come first
  EXPECT_EQ(stealableCount(2, 3), 0u);
}

// At most maxStealsInFlight requests are out, never two to one victim, never one to ourselves.
TEST(StealProtocol, AtMostMaxStealsInFlight) {
  CommOptions o;
  o.maxStealsInFlight = 2;
  Rig r(0, 4, o);
  r.policy.victims = {1, 1, 0, 2, 3, 3};
  EXPECT_TRUE(r.p->onTurn(0, true));   // 1
  EXPECT_FALSE(r.p->onTurn(0, true));  // 1 again: already asked
  EXPECT_FALSE(r.p->onTurn(0, true));  // ourselves
  EXPECT_TRUE(r.p->onTurn(0, true));   // 2
  EXPECT_EQ(r.p->requestsInFlight(), 2);
  const int chooses = r.policy.chooses;
  EXPECT_FALSE(r.p->onTurn(0, true));  // two out: the policy is not even asked
  EXPECT_EQ(r.policy.chooses, chooses);
  r.p->onReply(1, 1, std::nullopt, false);
  EXPECT_TRUE(r.p->onTurn(0, true));  // 3
  EXPECT_EQ(r.p->requestsInFlight(), 2);
}

// No request while the rank is not hungry, after a stop, or on a single rank.
TEST(StealProtocol, OnlyAHungryRankOfSeveralAsks) {
  Rig r(0, 2);
  r.policy.victims = {1, 1, 1};
  EXPECT_FALSE(r.p->onTurn(0, false));
  r.port.stop = true;
  EXPECT_FALSE(r.p->onTurn(0, true));
  r.port.stop = false;
  EXPECT_TRUE(r.p->onTurn(0, true));
  Rig alone(0, 1);
  alone.policy.victims = {0};
  EXPECT_FALSE(alone.p->onTurn(0, true));
}

// A hunger episode starts when the rank starts needing work: the policy hears of each once.
TEST(StealProtocol, HungerEpisodes) {
  Rig r(0, 2);
  for (bool h : {true, true, false, false, true, true, false, true}) r.p->onTurn(0, h);
  EXPECT_EQ(r.stats.hungerEpisodes, 3u);
  EXPECT_EQ(r.policy.hungry, 3);
}

// The policy's periodic work runs at the first turn and then when the time it asked for comes.
TEST(StealProtocol, TheAuxiliaryRefreshRunsWhenDue) {
  Rig r(0, 4);
  r.policy.refreshEveryNs = 1000;
  r.p->refreshIfDue(0);
  EXPECT_EQ(r.policy.refreshes, 1);
  r.p->refreshIfDue(999);
  EXPECT_EQ(r.policy.refreshes, 1);
  r.p->refreshIfDue(1000);
  EXPECT_EQ(r.policy.refreshes, 2);
  Rig never(0, 4);
  never.p->refreshIfDue(0);
  never.p->refreshIfDue(1'000'000'000);
  EXPECT_EQ(never.policy.refreshes, 1);
}

// The thief's request carries what its board said of the victim.
TEST(StealProtocol, ARequestCarriesTheBoardsPromise) {
  Rig r(0, 3);
  r.policy.victims = {2, 1};
  RankRecord rec;
  rec.seq = 2;
  rec.queued = 9;
  r.board.records[2] = rec;
  ASSERT_TRUE(r.p->onTurn(0, true));
  EXPECT_TRUE(r.port.sent.back().q.seen);
  EXPECT_EQ(r.port.sent.back().q.queued, 9u);
  r.p->onReply(2, 1, std::nullopt, false);
  ASSERT_TRUE(r.p->onTurn(0, true));
  EXPECT_FALSE(r.port.sent.back().q.seen);
}

// The record goes out when it changed, at most every publishInterval where publishing is remote,
// but at once when the stealable count crosses zero or a steal was answered.
TEST(StealProtocol, PublishingRules) {
  CommOptions o;
  o.publishInterval = 500us;
  Rig r(0, 2, o);
  RankRecord rec;
  rec.queued = 3;
  ASSERT_TRUE(r.p->publishDue(0, 3, true));
  EXPECT_TRUE(r.p->offerRecord(0, rec));
  EXPECT_FALSE(r.p->publishDue(r.us(100), 4, true)) << "rate limited";
  EXPECT_TRUE(r.p->publishDue(r.us(100), 4, false)) << "no limit where publishing stays local";
  EXPECT_TRUE(r.p->publishDue(r.us(100), 0, true)) << "crossing zero goes at once";
  EXPECT_TRUE(r.p->publishDue(r.us(500), 4, true));
  EXPECT_FALSE(r.p->offerRecord(r.us(500), rec)) << "unchanged";
  r.port.gives = {1};
  r.p->onRequest(1, StealRequest{}, false);
  EXPECT_TRUE(r.p->publishDue(r.us(501), 3, true)) << "after an answer";
}

// The comm thread's sleep: none after an active turn; otherwise from minSleep, doubling to the
// cap that fits (minSleep while a request of ours is out).
TEST(StealProtocol, SleepDoublesToItsCap) {
  CommOptions o;
  o.doorbell = false;
  Rig r(0, 2, o);
  EXPECT_FALSE(r.p->afterTurn(true, 1, false));
  std::vector<long> sleeps;
  for (int i = 0; i < 8; ++i) sleeps.push_back(r.p->afterTurn(false, 1, false)->count());
  EXPECT_EQ(sleeps, (std::vector<long>{20, 40, 80, 160, 320, 640, 1000, 1000}));
  r.policy.victims = {1};
  ASSERT_TRUE(r.p->onTurn(0, true));
  EXPECT_EQ(r.p->afterTurn(false, 1, false)->count(), 20) << "waiting for a reply";
}

// A held steal request is woken for by the worker that splits (and by one whose task ends), so the
// comm thread need not poll for it: it sleeps as usual, but never past the hold's end. A held seed
// request is polled for, as a reply is.
TEST(StealProtocol, AHeldStealRequestSleepsUntilItsHoldEnds) {
  CommOptions o;
  o.doorbell = false;
  o.stealHoldMax = 500us;
  Rig r(1, 4, o);
  for (int i = 0; i < 8; ++i) r.p->afterTurn(false, 0, false);  // the back-off at its cap, 1000 µs
  r.port.splits = true;
  r.p->onRequest(2, StealRequest{}, false);
  ASSERT_TRUE(r.p->holdsRequests());
  r.port.now = r.us(200);
  EXPECT_EQ(r.p->afterTurn(false, 0, false)->count(), 301) << "the 300 µs its hold has left (+1)";
  r.port.now = r.us(600);
  EXPECT_EQ(r.p->afterTurn(false, 0, false)->count(), 1) << "past its hold: look at once";
  EXPECT_TRUE(r.p->serveHeld(false));
  EXPECT_FALSE(r.p->holdsRequests());

  CommOptions so;
  so.doorbell = false;
  so.seedArity = 2;
  Rig s(1, 4, so);
  s.port.work = true;
  StealRequest q;
  q.seed = true;
  s.p->onRequest(3, q, false);
  ASSERT_TRUE(s.p->holdsRequests());
  EXPECT_EQ(s.p->afterTurn(false, 0, false)->count(), 20) << "a held seed request: polled like a reply";
}

// The sizes the simulator charges a request and an answer's header are what the comm thread sends.
TEST(WireSizes, RequestAndAnswerHeader) {
  std::vector<std::byte> request, header;
  {
    wire::Writer w(request);
    w(StealRequest{true, true, true, 7, 9});
    wire::Writer h(header);
    h(AnswerHeader{3, -1});
  }
  EXPECT_EQ(request.size(), kStealRequestBytes);
  EXPECT_EQ(header.size(), kAnswerHeaderBytes);
  StealRequest back;
  wire::Reader in(request);
  in(back);
  EXPECT_TRUE(back.half && back.seed && back.seen);
  EXPECT_EQ(back.queued, 7u);
  EXPECT_EQ(back.id, 9u);
}
