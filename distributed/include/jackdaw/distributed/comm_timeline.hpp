// Puts what the comm thread does on a Timeline (core/timeline.hpp): steal requests on both sides,
// load publications, bounds, stops (the comm lane), round trips (steal lane), termination waves (wave lane).
//
//   jackdaw::Timeline tl;
//   jackdaw::distributed::CommTimeline onComm(tl);
//   cfg.comm.events = &onComm;          // comm::SessionConfig, before the Session is built
#pragma once

#include <chrono>
#include <cstdint>

#include "jackdaw/comm/comm_events.hpp"
#include "jackdaw/core/timeline.hpp"

namespace jackdaw::distributed {

class CommTimeline final : public comm::CommEvents {
 public:
  explicit CommTimeline(Timeline& t) : tl_(t) {}
  // Every rank calls this between two sessions (searches) of one run: request numbers start again
  // in each, so the recorded id carries the session too.
  void nextSession() { session_ += std::int64_t{1} << 40; }
  void stealEnded(const Steal& s) override {
    tl_.span(TimelineKind::Steal, Timeline::kStealLane, at(s.startNs), at(s.endNs), id(s), s.tasks, s.victim);
  }
  void stealAnswered(const Steal& s) override {
    tl_.span(TimelineKind::Answer, Timeline::kCommLane, at(s.startNs), at(s.endNs), id(s), s.tasks, s.thief);
  }
  void published(std::uint64_t ns, std::uint64_t stealable, std::uint64_t pooled) override {
    tl_.instant(TimelineKind::Publish, Timeline::kCommLane, at(ns), static_cast<std::int64_t>(stealable),
                static_cast<std::int64_t>(pooled));
  }
  void boundSent(std::uint64_t ns, std::int64_t bound) override {
    tl_.instant(TimelineKind::BoundSent, Timeline::kCommLane, at(ns), bound);
  }
  void boundReceived(std::uint64_t ns, std::int64_t bound) override {
    tl_.instant(TimelineKind::BoundReceived, Timeline::kCommLane, at(ns), bound);
  }
  void stopReceived(std::uint64_t ns, int reason) override {
    tl_.instant(TimelineKind::StopReceived, Timeline::kCommLane, at(ns), reason);
  }
  void wave(std::uint64_t startNs, std::uint64_t endNs, bool decided) override {
    tl_.span(TimelineKind::Wave, Timeline::kWaveLane, at(startNs), at(endNs), decided ? 1 : 0);
  }

 private:
  // The comm thread's clock is steady_clock's nanoseconds since that clock's epoch.
  static Timeline::Clock::time_point at(std::uint64_t ns) {
    return Timeline::Clock::time_point(std::chrono::duration_cast<Timeline::Clock::duration>(std::chrono::nanoseconds(ns)));
  }
  std::int64_t id(const Steal& s) const { return session_ + static_cast<std::int64_t>(s.id); }
  Timeline& tl_;
  std::int64_t session_ = 0;
};

}  // namespace jackdaw::distributed
