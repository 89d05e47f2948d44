// A run's timeline: what every worker and the comm thread did, and when, for a trace viewer
// (the app frame's --timeline writes it in the Chrome trace-event format).
//
//   jackdaw::Timeline tl({.cap = 1'000'000});
//   jackdaw::TimelineObserver watch(tl);                   // task spans, better solutions, stops
//   opts.observers.push_back(&watch);                      // any parallel skeleton
//   tl.instant(TimelineKind::Checkpoint, Timeline::kMainLane);
//   for (const TimelineEvent& e : tl.events()) ...         // after the run, sorted by time
//
// Cost: off unless someone records. Each thread appends to its own buffer (a lock is taken only
// the first time a thread records); the one shared write per event is a relaxed counter that
// enforces the cap. Past the cap events are dropped and counted, and the time of the first drop
// is kept, so a reader knows from when on the timeline is incomplete.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "jackdaw/core/search_observer.hpp"

namespace jackdaw {

enum class TimelineKind : std::uint16_t {
  Task,           // worker lane, span: a task ran; a = depth, b = nodes visited
  Better,         // worker lane (main lane off a worker), instant: a better solution was found here
  StopRequested,  // worker lane (main lane off a worker), instant: this rank's search stop reason rose to a
  Search,         // main lane, span: one search (one leg of a checkpointed run)
  Checkpoint,     // main lane, span: a checkpoint was written; a = tasks saved
  Steal,          // steal lane, span: a steal request's round trip; a = id, b = tasks (0: refused), c = victim
  Answer,         // comm lane, span: a steal request answered; a = thief's id, b = tasks given, c = thief
  Publish,        // comm lane, instant: load record published; a = stealable tasks, b = pooled tasks
  BoundSent,      // comm lane, instant: a better bound offered to every rank; a = encoded bound
  BoundReceived,  // comm lane, instant: a better bound from another rank reached the search; a = bound
  StopReceived,   // comm lane, instant: a stop reached this rank; a = reason
  Wave,           // wave lane, span: a termination wave (nonblocking allreduce); a = 1 if it decided
};

struct TimelineEvent {
  std::int64_t startNs = 0;  // since the timeline's epoch
  std::int64_t durNs = -1;   // -1: an instant
  std::int64_t a = 0, b = 0;
  std::int32_t c = 0;
  TimelineKind kind = TimelineKind::Task;
  std::int16_t lane = 0;     // a worker's index, or one of Timeline's other lanes
};

struct TimelineOptions {
  std::size_t cap = 1'000'000;  // events kept per process (about 40 bytes each)
};

class Timeline {
 public:
  using Clock = std::chrono::steady_clock;
  // Lanes besides the workers' (0, 1, …). Spans on one lane never cross each other, so trace
  // viewers can nest them: the comm thread's own work, its steal round trips and its termination
  // waves overlap in time and get a lane each.
  static constexpr std::int16_t kCommLane = -1;   // the comm thread: answers, publications, bounds, stops
  static constexpr std::int16_t kMainLane = -2;   // the thread that runs the searches
  static constexpr std::int16_t kStealLane = -3;  // this rank's steal requests, send to answer
  static constexpr std::int16_t kWaveLane = -4;   // termination waves

  explicit Timeline(TimelineOptions o = {}) : cap_(o.cap), epoch_(Clock::now()), id_(nextId()) {}
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // The time origin. A multi-rank run sets every rank's to the same instant (the app frame
  // estimates rank 0's clock by ping-pong), so the ranks' events line up.
  void setEpoch(Clock::time_point t) { epoch_ = t; }
  Clock::time_point epoch() const { return epoch_; }
  std::int64_t sinceEpochNs(Clock::time_point t) const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t - epoch_).count();
  }

  // The main lane's few events (each search, each checkpoint) are kept past the cap: they frame
  // the rest.
  void record(const TimelineEvent& e) {
    if (e.lane != kMainLane && count_.fetch_add(1, std::memory_order_relaxed) >= cap_) {
      noteDrop(e.startNs);
      return;
    }
    mine().push_back(e);
  }
  void span(TimelineKind k, std::int16_t lane, Clock::time_point start, Clock::time_point end, std::int64_t a = 0,
            std::int64_t b = 0, std::int32_t c = 0) {
    const std::int64_t from = sinceEpochNs(start);
    record({from, std::max<std::int64_t>(0, sinceEpochNs(end) - from), a, b, c, k, lane});
  }
  void instant(TimelineKind k, std::int16_t lane, Clock::time_point at = Clock::now(), std::int64_t a = 0,
               std::int64_t b = 0, std::int32_t c = 0) {
    record({sinceEpochNs(at), -1, a, b, c, k, lane});
  }

  // After the run (no thread recording): every kept event, by start time.
  std::vector<TimelineEvent> events() const {
    std::vector<TimelineEvent> out;
    std::lock_guard lock(mutex_);
    for (const auto& b : buffers_) out.insert(out.end(), b->begin(), b->end());
    std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.startNs < y.startNs; });
    return out;
  }
  std::size_t cap() const { return cap_; }
  std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  // Nanoseconds since the epoch of the first dropped event's start (meaningful when dropped() > 0).
  std::int64_t firstDropNs() const { return firstDropNs_.load(std::memory_order_relaxed); }

 private:
  using Buffer = std::vector<TimelineEvent>;
  // This thread's buffer: found through a thread-local cache keyed by the timeline's id (an
  // address could be reused by a later timeline); registered under the lock on first use.
  Buffer& mine() {
    struct Cache {
      std::uint64_t id = 0;
      Buffer* buffer = nullptr;
    };
    thread_local Cache cache;
    if (cache.id != id_) {
      std::lock_guard lock(mutex_);
      buffers_.push_back(std::make_unique<Buffer>());
      buffers_.back()->reserve(1024);
      cache = {id_, buffers_.back().get()};
    }
    return *cache.buffer;
  }
  void noteDrop(std::int64_t at) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    std::int64_t cur = firstDropNs_.load(std::memory_order_relaxed);
    while (at < cur && !firstDropNs_.compare_exchange_weak(cur, at, std::memory_order_relaxed)) {
    }
  }
  static std::uint64_t nextId() {
    static std::atomic<std::uint64_t> ids{0};  // identity only: each timeline gets a distinct number
    return ids.fetch_add(1, std::memory_order_relaxed) + 1;
  }

  std::size_t cap_;
  Clock::time_point epoch_;
  std::uint64_t id_;
  std::atomic<std::size_t> count_{0};
  std::atomic<std::uint64_t> dropped_{0};
  std::atomic<std::int64_t> firstDropNs_{std::numeric_limits<std::int64_t>::max()};
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Buffer>> buffers_;
};

// Records a parallel search's task spans (with their depth), better solutions and stops. Attach
// it after any observer whose taskFinished does work that belongs to the task (a slow-rank
// experiment spins there), so the span ends when the worker really became free.
class TimelineObserver final : public SearchObserver {
 public:
  explicit TimelineObserver(Timeline& t) : tl_(t) {}
  void taskFinished(const TaskSpan& s) override {
    tl_.span(TimelineKind::Task, static_cast<std::int16_t>(s.worker), s.start, Timeline::Clock::now(), s.depth,
             static_cast<std::int64_t>(s.nodes));
  }
  // Off a worker (worker -1: the seed on the launching thread), on the main lane.
  void incumbentImproved(int worker) override { tl_.instant(TimelineKind::Better, lane(worker)); }
  void stopRequested(StopReason r, int worker) override {
    tl_.instant(TimelineKind::StopRequested, lane(worker), Timeline::Clock::now(), static_cast<std::int64_t>(r));
  }

 private:
  static std::int16_t lane(int worker) { return worker >= 0 ? static_cast<std::int16_t>(worker) : Timeline::kMainLane; }
  Timeline& tl_;
};

}  // namespace jackdaw
