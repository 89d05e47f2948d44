// The steal protocol, written once: every rule of who asks whom for work, when, how often, what a
// victim answers, when it holds a request, when a rank publishes its load and how long its comm
// thread sleeps. No MPI and no clock of its own: a transport drives it and carries out what it
// decides through a StealPort. CommThread (comm_thread.hpp) drives it over MPI; jackdaw-sim's comm
// actor (sim/) over SimGrid mailboxes in simulated time. Neither keeps a copy of a rule.
//
// A transport's loop, per turn:
//   for each message:  request -> protocol.onRequest(thief, q, draining)
//                      reply   -> protocol.onReply(victim, count, redirect, draining), then take
//                                 the tasks in
//   protocol.serveHeld(draining);  protocol.onTurn(now, hungry);
//   if (protocol.publishDue(now, stealable, rateLimited) && protocol.offerRecord(now, record)) publish
//   if (auto p = protocol.probeDue(now)) protocol.delaySample(*p, timedRead(*p));
//   protocol.refreshIfDue(now);
//   if (auto s = protocol.afterTurn(active, idleWorkers, sendsPending)) sleep(*s);
// and protocol.finish() once the search is over.
//
// The rules, with their reasons, are at the members below; the options are CommOptions'.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "jackdaw/comm/board_record.hpp"
#include "jackdaw/comm/comm_options.hpp"
#include "jackdaw/comm/comm_stats.hpp"
#include "jackdaw/comm/policies/board_view.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

// A steal request as it travels from thief to victim (the runtime writes it with wire.hpp).
struct StealRequest {
  bool half = false;         // the thief takes half the victim's spare tasks (CommOptions::stealHalf)
  bool seed = false;         // a seed request (seed_tree.hpp)
  bool seen = false;         // the thief's board had a record of the victim …
  std::uint64_t queued = 0;  // … saying this many stealable tasks (how stale the board was)
  std::uint64_t id = 0;      // the thief's request number (timelines match the two sides by it)
  template <class Archive>
  void serialize(Archive& a) {
    a(half, seed, seen, queued, id);
  }
};

// An answer's header: the task count, and for a refused seed request the rank to ask next (-1:
// none; seed_tree.hpp). The tasks follow it.
struct AnswerHeader {
  std::uint32_t count = 0;
  std::int32_t redirect = -1;
  template <class Archive>
  void serialize(Archive& a) {
    a(count, redirect);
  }
};

// A request's and an answer header's sizes in the wire format (wire.hpp; test_wire checks them):
// what the comm thread sends, and what jackdaw-sim charges a message.
constexpr std::size_t kStealRequestBytes = 3 * sizeof(bool) + 2 * sizeof(std::uint64_t);
constexpr std::size_t kAnswerHeaderBytes = sizeof(std::uint32_t) + sizeof(std::int32_t);

// What the protocol asks of the rank it runs on and of the transport. Called only from within the
// protocol's own calls, on the driving thread.
class StealPort {
 public:
  virtual ~StealPort() = default;
  virtual std::uint64_t nowNs() = 0;  // the clock (steady, or simulated)
  virtual bool stopped() = 0;         // the search is over or stopping: no new request
  // Victim: move the tasks request q may have (LocalWork::giveAway) into the answer being built
  // for `thief`; returns how many. Not called while draining.
  virtual std::uint32_t take(int thief, const StealRequest& q) = 0;
  // Victim: a task runs or waits on this rank (it will have work to give).
  virtual bool holdsWork() = 0;
  // Victim: a busy worker here splits for a thief that take() found nothing for (take() asked it
  // to), so a request is worth holding for that split (CommOptions::stealHoldMax).
  virtual bool splitsForThieves() { return false; }
  // Send the answer built by the last take() (none: a refusal) to `thief`; a refused seed request
  // may name the rank to ask next.
  virtual void sendAnswer(int thief, const StealRequest& q, std::uint32_t count, std::optional<int> redirect) = 0;
  // Send a steal request; ring: also ring the victim's doorbell (CommOptions::doorbell).
  virtual void sendRequest(int victim, const StealRequest& q, bool ring) = 0;
  // Around a call into the policy that may block (a choice or refresh that reads records at their
  // owners): the transport may let go of what it holds meanwhile.
  virtual void policyCallBegins() {}
  virtual void policyCallEnds() {}
};

class StealProtocol {
 public:
  // startNs: the job's common time origin (the choice log's 10 ms bins count from it).
  StealProtocol(const CommOptions& opts, int rank, int size, VictimPolicy& policy, const BoardView& view,
                CommStats& stats, StealPort& port, std::uint64_t startNs = 0);

  // ---- thief ----
  // One turn: note a new hunger episode (the policy starts it afresh), then send a request if the
  // rank is hungry, fewer than maxStealsInFlight are out and the back-off has passed: to the seed
  // victim during the seed phase, else to the policy's choice (never ourselves, never a victim
  // already asked). Returns whether a request went.
  bool onTurn(std::uint64_t now, bool hungry);
  // The answer to our request to `victim`: count tasks (the transport takes them in), or a refusal
  // that may name where to ask next (seed requests). Updates the back-off, the seed phase and the
  // policy. While draining the policy is not told.
  void onReply(int victim, std::uint32_t count, std::optional<int> redirect, bool draining);

  // ---- victim ----
  // A request from `thief`: answered at once (work, or a refusal), or, with nothing to give yet,
  // held: a seed request while this rank has work or expects some (seed_tree.hpp), any request
  // while a busy worker splits for it (stealHoldMax). While draining every request is refused
  // without taking.
  void onRequest(int thief, const StealRequest& q, bool draining);
  // Held requests: answered once there is spare work, refused once holding is over (all of them
  // while draining). Returns whether any was answered.
  bool serveHeld(bool draining);

  // ---- the board record ----
  // Whether to offer a record now: when something changed, at most every publishInterval
  // (rateLimited: publishing costs remote puts), but at once when the stealable count crosses
  // zero or a steal was answered — what a thief's choice turns on.
  bool publishDue(std::uint64_t now, std::uint64_t stealable, bool rateLimited) const;
  // The record the transport would publish: true if it differs from the last published (then the
  // transport publishes it; the protocol takes it as published).
  bool offerRecord(std::uint64_t now, const RankRecord& r);

  // ---- measurements and the policy's own clock ----
  // The peer to time a one-sided read of now (round robin, every latencyProbeInterval), if any.
  std::optional<int> probeDue(std::uint64_t now);
  // A timed one-sided read (the delay of (3.2)): to the policy and the means in stats.
  void delaySample(int peer, double us);
  // The policy's periodic work (VictimPolicy::refresh), when the time it asked for has come.
  void refreshIfDue(std::uint64_t now);

  // ---- sleeping ----
  // After a turn: nothing when it was active (the back-off restarts from minSleep), else how long
  // to sleep (nextSleep in comm_options.hpp: its caps follow whether a request of ours is out or
  // held, whether we hold tasks, idle workers and pending sends).
  std::optional<std::chrono::microseconds> afterTurn(bool active, int idleWorkers, bool sendsPending);

  // Once the search is over: the last herding burst and the per-peer means into stats.
  void finish();

  int requestsInFlight() const { return static_cast<int>(inflight_.size()); }
  bool holdsRequests() const { return !held_.empty(); }
  bool seeding() const { return seeding_; }
  const RankRecord& lastRecord() const { return lastRecord_; }

 private:
  struct Inflight {
    std::uint64_t sentNs = 0;
    std::uint64_t id = 0;
    bool seed = false;
  };
  struct Held {
    int thief;
    StealRequest q;
    std::uint64_t arrivedNs;
  };
  // Answer q (work or a refusal), held for heldUs so far; false: kept to answer later, nothing sent.
  bool answer(int thief, const StealRequest& q, std::uint64_t arrivedNs, bool draining, double heldUs);
  // Whether a request that take() found nothing for is kept rather than refused.
  bool keep(const StealRequest& q, double heldUs);
  void roundTripSample(int peer, double us);
  void endBurst();

  const CommOptions& o_;
  int rank_, size_;
  VictimPolicy& policy_;
  const BoardView& view_;
  CommStats& stats_;
  StealPort& port_;
  std::uint64_t startNs_;

  std::map<int, Inflight> inflight_;  // victim -> our request to it
  std::uint64_t nextStealNs_ = 0, stealRetryUs_ = 0;
  bool hungry_ = false;   // hungry at the last turn (hunger episodes)
  bool seeding_ = false;  // our seed request is still to be sent or answered
  int seedVictim_ = -1;   // where it goes: our tree parent, then the rank a refusal named
  std::vector<Held> held_;  // requests waiting for spare work
  std::uint64_t lastRequestNs_ = 0, burst_ = 0;  // herding: the last request's arrival, its burst so far
  RankRecord lastRecord_{};
  bool everPublished_ = false, publishSoon_ = false;
  std::uint64_t lastPublishNs_ = 0, lastProbeNs_ = 0, nextRefreshNs_ = 0;
  int probePeer_;
  std::chrono::microseconds backoff_;
  std::vector<double> delaySumUs_, rttSumUs_;  // per peer, for the means in stats
  std::vector<std::uint64_t> delaySamples_, rttSamples_;
};

}  // namespace jackdaw::comm
