// --timeline FILE: records the run on every rank (core/timeline.hpp) and writes one Chrome
// trace-event JSON file from rank 0. In the file, a rank is a process ("rank r") and its lanes are
// threads: "worker k" (task spans with their depth, idle spans, better solutions, stops), "comm"
// (steal requests answered, with an arrow from victim to thief for every granted one, load
// publications, bounds, stops), "steals" (this rank's requests, send to answer), "waves"
// (termination waves) and "main" (each search, checkpoints written).
// Times are microseconds since rank 0's start, every rank's clock set to rank 0's by ping-pong.
//
// A feature of the app frame (run_feature.hpp); its hooks do this:
//
//   RunTimeline tl(ctx);                       // off unless --timeline; checks FILE is writable
//   if (auto* o = tl.observer()) observers.push_back(o);
//   session.comm.events = tl.commEvents();
//   tl.align();                                // collective, once, before the first search
//   tl.search(start, end, workers, parallel, nodes);  // after each search
//   tl.write();                                // collective, at the end
//
// tools/timeline.py turns the file into a utilisation picture.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jackdaw/app/context.hpp"
#include "jackdaw/app/run_feature.hpp"
#include "jackdaw/comm/comm_events.hpp"
#include "jackdaw/core/timeline.hpp"

namespace jackdaw::distributed {
class CommTimeline;
}

namespace jackdaw::app {

class RunTimeline final : public RunFeature {
 public:
  using Clock = Timeline::Clock;
  // Off without --timeline. On rank 0 a FILE that cannot be written is an InputError, now.
  explicit RunTimeline(AppContext& ctx);
  ~RunTimeline() override;
  RunTimeline(const RunTimeline&) = delete;
  RunTimeline& operator=(const RunTimeline&) = delete;

  void observers(std::vector<SearchObserver*>& list) override;
  void searching() override { align(); }
  void beforeLeg(SolveOptions& so) override;
  void afterLeg(Leg& leg) override;
  void finish(Leg&) override { write(); }

  bool on() const { return tl_ != nullptr; }
  SearchObserver* observer();
  comm::CommEvents* commEvents();
  // Collective: every rank puts its time origin where rank 0's is (a few ping-pongs with rank 0).
  void align();
  // One search ran from start to end with `workers` workers; a sequential one (parallel false)
  // was one busy span on worker 0 that visited `nodes`.
  void search(Clock::time_point start, Clock::time_point end, int workers, bool parallel, std::uint64_t nodes);
  void checkpoint(Clock::time_point start, Clock::time_point end, std::uint64_t tasks);
  // Collective: every rank sends its events to rank 0, which writes FILE.
  void write();

 private:
  AppContext& ctx_;
  std::unique_ptr<Timeline> tl_;
  std::unique_ptr<TimelineObserver> observer_;
  std::unique_ptr<distributed::CommTimeline> comm_;
  int workers_ = 1;
  int legs_ = 0;
  std::int64_t clockErrorNs_ = 0;  // how far this rank's zero may be from rank 0's (align())
};

// One rank's part of the trace: its events as trace-event JSON objects, each line starting with
// ",\n" (so parts concatenate after a first element). Searches' windows give each worker its idle
// spans: the gaps between its tasks, up to the first dropped event if the cap was reached.
std::string traceEventsOfRank(int rank, int workers, const std::vector<TimelineEvent>& events,
                              std::int64_t firstDropNs, std::uint64_t dropped);

}  // namespace jackdaw::app
