// A rank's turn, written once for the steal protocol's two transports: the MPI comm thread
// (comm/src/comm_thread.cpp) and jackdaw-sim's comm actor (sim/src/comm_actor.hpp), as oneTBB
// writes its stealing loop once over its waiters. The turn fixes the order of the steps and what
// each asks of the protocol (steal_protocol.hpp) and of the rank's work (local_work.hpp); the
// transport says how messages arrive, how bound and stop travel, how a record reaches the board,
// how a read is timed, and what else its loop does between turns.
//
//   struct Transport {                                 // what commTurn asks of a transport
//     bool receive();                                  // every arrived message to the protocol; true if any
//     bool exchangeBounds();                           // bound and stop out and in; true if any moved
//     bool finished();                                 // the search is over: held requests are refused
//     bool boardPushes();                              // a publish goes to every rank (--board all)
//     void publish(std::uint64_t now, const RankRecord& r);
//     std::optional<double> timedRead(int peer);       // one read of peer's record: the round trip in µs
//                                                      //   (none yet where the read does not wait for it)
//     bool endTurn(std::uint64_t now);                 // its own work after the turn; true: the loop ends
//     bool sendsPending();                             // its sends still in progress
//   };
//   while (!(end = commTurn(protocol, transport, work, now())).last) if (end.sleep) sleep(*end.sleep);
#pragma once

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <optional>

#include "jackdaw/comm/board_record.hpp"
#include "jackdaw/comm/local_work.hpp"
#include "jackdaw/comm/steal_protocol.hpp"

namespace jackdaw::comm {

template <class T>
concept TurnTransport = requires(T& t, std::uint64_t now, const RankRecord& r, int peer) {
  { t.receive() } -> std::same_as<bool>;
  { t.exchangeBounds() } -> std::same_as<bool>;
  { t.finished() } -> std::same_as<bool>;
  { t.boardPushes() } -> std::same_as<bool>;
  t.publish(now, r);
  { t.timedRead(peer) } -> std::convertible_to<std::optional<double>>;
  { t.endTurn(now) } -> std::same_as<bool>;
  { t.sendsPending() } -> std::same_as<bool>;
};

// The rank's load as the board publishes it (the board sets seq and time).
inline RankRecord loadRecord(LocalWork& work, std::uint64_t stealable) {
  RankRecord r;
  r.queued = stealable;
  r.workRate = work.workRate();
  r.pooled = work.queuedTasks();
  r.running = static_cast<std::uint64_t>(std::max(0, work.runningTasks()));
  r.idle = static_cast<std::uint64_t>(std::max(0, work.idleWorkers()));
  return r;
}

// A rank holds work while a task runs or waits in its pool (StealPort::holdsWork of both transports).
inline bool holdsWork(LocalWork& work) { return work.runningTasks() > 0 || work.queuedTasks() > 0; }

// The record goes out when the protocol says it is due and it changed (steal_protocol.hpp). A
// publish that stays in this rank's own window (--board sample) costs a few stores: no rate limit.
// Returns the record published, if one was.
template <TurnTransport T>
std::optional<RankRecord> publishIfDue(StealProtocol& protocol, T& transport, LocalWork& work, std::uint64_t now) {
  const std::uint64_t stealable = work.stealableTasks();
  if (!protocol.publishDue(now, stealable, transport.boardPushes())) return std::nullopt;
  const RankRecord r = loadRecord(work, stealable);
  if (!protocol.offerRecord(now, r)) return std::nullopt;
  transport.publish(now, r);
  return r;
}

struct TurnEnd {
  bool last = false;                               // the transport ended the loop
  std::optional<std::chrono::microseconds> sleep;  // else: how long to sleep before the next turn
};

// One turn: what arrived, the held requests, bound and stop, this rank's own steal, its record,
// a latency probe and the sampled board's refresh, then the transport's own work, then the sleep.
template <TurnTransport T>
TurnEnd commTurn(StealProtocol& protocol, T& transport, LocalWork& work, std::uint64_t now) {
  bool active = transport.receive();
  active |= protocol.serveHeld(transport.finished());
  active |= transport.exchangeBounds();
  active |= protocol.onTurn(now, work.needsWork());
  publishIfDue(protocol, transport, work, now);
  if (auto peer = protocol.probeDue(now))
    if (const std::optional<double> us = transport.timedRead(*peer)) protocol.delaySample(*peer, *us);
  protocol.refreshIfDue(now);
  if (transport.endTurn(now)) return {true, std::nullopt};
  return {false, protocol.afterTurn(active, work.idleWorkers(), transport.sendsPending())};
}

}  // namespace jackdaw::comm
