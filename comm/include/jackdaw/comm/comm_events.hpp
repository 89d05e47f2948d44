// What the comm thread does, for a recorder outside comm/ (the app frame's --timeline). Set
// CommOptions::events (SessionConfig::comm.events); every call comes from the comm thread, one at a time, with steady-clock
// nanoseconds (the clock of std::chrono::steady_clock, since its epoch). With no listener the comm
// thread makes no call.
//
//   struct Log : jackdaw::comm::CommEvents {
//     void stealEnded(const Steal& s) override { std::printf("%d -> %d: %u\n", s.thief, s.victim, s.tasks); }
//   } log;
//   cfg.comm.events = &log;
#pragma once

#include <cstdint>

namespace jackdaw::comm {

class CommEvents {
 public:
  virtual ~CommEvents() = default;
  // One steal request: `id` numbers the thief's requests, so (thief, id) names it on both sides.
  struct Steal {
    int thief = 0, victim = 0;
    std::uint64_t id = 0;
    std::uint32_t tasks = 0;  // 0: refused
    std::uint64_t startNs = 0, endNs = 0;
  };
  // Thief side: the request went out at startNs and its answer arrived at endNs.
  virtual void stealEnded(const Steal&) {}
  // Victim side: the request was taken in (a held one: its hold ended) at startNs and the answer
  // sent at endNs.
  virtual void stealAnswered(const Steal&) {}
  // This rank's load record went on the board.
  virtual void published(std::uint64_t /*atNs*/, std::uint64_t /*stealable*/, std::uint64_t /*pooled*/) {}
  // This rank offered a better bound to every rank / a better bound from the board reached the search.
  virtual void boundSent(std::uint64_t /*atNs*/, std::int64_t /*bound*/) {}
  virtual void boundReceived(std::uint64_t /*atNs*/, std::int64_t /*bound*/) {}
  // A stop reason (StopReason's value) reached this rank's search from the board.
  virtual void stopReceived(std::uint64_t /*atNs*/, int /*reason*/) {}
  // A termination wave ran from startNs to endNs; `decided`: it ended the search.
  virtual void wave(std::uint64_t /*startNs*/, std::uint64_t /*endNs*/, bool /*decided*/) {}
  // A turn of the comm thread's loop ended (before it sleeps). Tests stall the thread here to
  // shuffle the order of its actions (tests/comm/random_stalls.hpp).
  virtual void turnEnded() {}
};

}  // namespace jackdaw::comm
