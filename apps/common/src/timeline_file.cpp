#include "jackdaw/app/timeline_file.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "jackdaw/app/report.hpp"
#include "jackdaw/app/safe_file.hpp"
#include "jackdaw/comm/collectives.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/memory_budget.hpp"
#include "jackdaw/distributed/comm_timeline.hpp"
#include "jackdaw/distributed/solve.hpp"

namespace jackdaw::app {

namespace {
const char* stopName(std::int64_t r) {
  switch (r) {
    case 1: return "interrupted";
    case 2: return "found";
    case 3: return "failed";
    default: return "none";
  }
}

// A flow arrow's id: the steal request (thief, number) it belongs to, written as a hex string (a
// JSON number would lose bits past 2^53). The number holds the session above bit 40 and the
// thief's count below; the rank goes above both.
std::uint64_t flowId(std::int64_t thief, std::int64_t id) {
  return static_cast<std::uint64_t>(id) + (static_cast<std::uint64_t>(thief) << 48);
}

struct Writer {
  std::string& out;
  int pid;
  int workers;
  // Workers first, then the comm thread's three lanes, then main.
  int tid(std::int16_t lane) const {
    switch (lane) {
      case Timeline::kCommLane: return workers;
      case Timeline::kStealLane: return workers + 1;
      case Timeline::kWaveLane: return workers + 2;
      case Timeline::kMainLane: return workers + 3;
      default: return lane;
    }
  }
  // ts and dur in microseconds with nanosecond digits.
  void complete(const char* name, const char* cat, std::int16_t lane, std::int64_t startNs, std::int64_t durNs,
                const std::string& args) {
    fmt::format_to(std::back_inserter(out),
                   ",\n{{\"name\":\"{}\",\"cat\":\"{}\",\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":{:.3f},\"dur\":{:.3f},"
                   "\"args\":{{{}}}}}",
                   name, cat, pid, tid(lane), 1e-3 * static_cast<double>(startNs), 1e-3 * static_cast<double>(durNs),
                   args);
  }
  void instant(const char* name, const char* cat, std::int16_t lane, std::int64_t atNs, const std::string& args) {
    fmt::format_to(std::back_inserter(out),
                   ",\n{{\"name\":\"{}\",\"cat\":\"{}\",\"ph\":\"i\",\"s\":\"t\",\"pid\":{},\"tid\":{},\"ts\":{:.3f},"
                   "\"args\":{{{}}}}}",
                   name, cat, pid, tid(lane), 1e-3 * static_cast<double>(atNs), args);
  }
  // ph "s" starts an arrow at a slice on this lane, ph "f" (binding to the enclosing slice) ends it.
  void flow(const char* ph, std::uint64_t id, std::int16_t lane, std::int64_t atNs) {
    fmt::format_to(std::back_inserter(out),
                   ",\n{{\"name\":\"work\",\"cat\":\"steal\",\"ph\":\"{}\",\"id\":\"0x{:x}\",\"pid\":{},\"tid\":{},\"ts\":{:.3f}{}}}",
                   ph, id, pid, tid(lane), 1e-3 * static_cast<double>(atNs), ph[0] == 'f' ? ",\"bp\":\"e\"" : "");
  }
  void name(const char* what, int t, const std::string& value) {
    fmt::format_to(std::back_inserter(out), ",\n{{\"name\":\"{}\",\"ph\":\"M\",\"pid\":{}{},\"args\":{{{}}}}}", what, pid,
                   t < 0 ? std::string() : fmt::format(",\"tid\":{}", t), value);
  }
};
}  // namespace

std::string traceEventsOfRank(int rank, int workers, const std::vector<TimelineEvent>& events,
                              std::int64_t firstDropNs, std::uint64_t dropped) {
  std::string out;
  Writer w{out, rank, workers};
  w.name("process_name", -1, fmt::format("\"name\":\"rank {}\"", rank));
  w.name("process_sort_index", -1, fmt::format("\"sort_index\":{}", rank));
  for (int k = 0; k < workers; ++k) {
    w.name("thread_name", k, fmt::format("\"name\":\"worker {}\"", k));
    w.name("thread_sort_index", k, fmt::format("\"sort_index\":{}", k));
  }
  const char* others[] = {"comm", "steals", "waves", "main"};
  for (int k = 0; k < 4; ++k) {
    w.name("thread_name", workers + k, fmt::format("\"name\":\"{}\"", others[k]));
    w.name("thread_sort_index", workers + k, fmt::format("\"sort_index\":{}", workers + k));
  }

  // Idle spans: within every search window, the gaps between a worker's tasks (only up to the
  // first dropped event: after it the tasks are not all known).
  const std::int64_t known = dropped > 0 ? firstDropNs : INT64_MAX;
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> busy(static_cast<std::size_t>(workers));
  for (const auto& e : events)
    if (e.kind == TimelineKind::Task && e.lane >= 0 && e.lane < workers)
      busy[static_cast<std::size_t>(e.lane)].emplace_back(e.startNs, e.startNs + e.durNs);
  for (const auto& e : events) {
    if (e.kind != TimelineKind::Search) continue;
    const std::int64_t from = e.startNs, to = std::min(e.startNs + e.durNs, known);
    for (int k = 0; k < workers; ++k) {
      std::int64_t cursor = from;
      for (const auto& [s, f] : busy[static_cast<std::size_t>(k)]) {  // sorted: events() is by start
        if (f <= from || s >= to) continue;
        if (s > cursor) w.complete("idle", "idle", static_cast<std::int16_t>(k), cursor, s - cursor, "");
        cursor = std::max(cursor, f);
      }
      if (to > cursor) w.complete("idle", "idle", static_cast<std::int16_t>(k), cursor, to - cursor, "");
    }
  }

  for (const auto& e : events) {
    switch (e.kind) {
      case TimelineKind::Task:
        w.complete("task", "busy", e.lane, e.startNs, e.durNs, fmt::format("\"depth\":{},\"nodes\":{}", e.a, e.b));
        break;
      case TimelineKind::Better:
        w.instant("better solution", "bound", e.lane, e.startNs, "");
        break;
      case TimelineKind::StopRequested:
        w.instant("stop requested", "stop", e.lane, e.startNs, fmt::format("\"reason\":\"{}\"", stopName(e.a)));
        break;
      case TimelineKind::Search:
        w.complete("search", "run", e.lane, e.startNs, e.durNs, fmt::format("\"leg\":{}", e.a));
        break;
      case TimelineKind::Checkpoint:
        w.complete("checkpoint written", "checkpoint", e.lane, e.startNs, e.durNs, fmt::format("\"tasks\":{}", e.a));
        break;
      case TimelineKind::Steal:
        w.complete(e.b > 0 ? "steal (granted)" : "steal (refused)", "steal", e.lane, e.startNs, e.durNs,
                   fmt::format("\"victim\":{},\"id\":{},\"tasks\":{}", e.c, e.a, e.b));
        if (e.b > 0) w.flow("f", flowId(rank, e.a), e.lane, e.startNs + e.durNs / 2);
        break;
      case TimelineKind::Answer:
        w.complete(e.b > 0 ? "answer (granted)" : "answer (refused)", "steal", e.lane, e.startNs, e.durNs,
                   fmt::format("\"thief\":{},\"id\":{},\"tasks\":{}", e.c, e.a, e.b));
        if (e.b > 0) w.flow("s", flowId(e.c, e.a), e.lane, e.startNs + e.durNs / 2);
        break;
      case TimelineKind::Publish:
        w.instant("publish", "board", e.lane, e.startNs, fmt::format("\"stealable\":{},\"pooled\":{}", e.a, e.b));
        break;
      case TimelineKind::BoundSent:
        w.instant("bound sent", "bound", e.lane, e.startNs, fmt::format("\"encoded_bound\":{}", e.a));
        break;
      case TimelineKind::BoundReceived:
        w.instant("bound received", "bound", e.lane, e.startNs, fmt::format("\"encoded_bound\":{}", e.a));
        break;
      case TimelineKind::StopReceived:
        w.instant("stop received", "stop", e.lane, e.startNs, fmt::format("\"reason\":\"{}\"", stopName(e.a)));
        break;
      case TimelineKind::Wave:
        w.complete("termination wave", "termination", e.lane, e.startNs, e.durNs,
                   fmt::format("\"decided\":{}", e.a != 0 ? "true" : "false"));
        break;
    }
  }
  return out;
}

RunTimeline::RunTimeline(AppContext& ctx) : ctx_(ctx) {
  const auto& o = ctx.opts;
  if (o.timelineFile.empty()) return;  // FILE itself was checked by runMain, with the other outputs
  // Up to the cap, each rank keeps its events; rank 0 then holds every rank's and writes each as
  // about 200 bytes of JSON. A cap the machine cannot hold is refused now, not by bad_alloc later.
  const std::uint64_t perEvent = sizeof(TimelineEvent) + (ctx.rank == 0 ? static_cast<std::uint64_t>(ctx.size) * 240 : 0);
  requireMemory(saturatingMul(o.timelineCap, perEvent), o.memoryLimit,
                "--timeline-cap " + std::to_string(o.timelineCap) + ": a full timeline");
  tl_ = std::make_unique<Timeline>(TimelineOptions{static_cast<std::size_t>(o.timelineCap)});
  observer_ = std::make_unique<TimelineObserver>(*tl_);
  comm_ = std::make_unique<distributed::CommTimeline>(*tl_);
}

RunTimeline::~RunTimeline() = default;

SearchObserver* RunTimeline::observer() { return observer_.get(); }
comm::CommEvents* RunTimeline::commEvents() { return comm_.get(); }

void RunTimeline::observers(std::vector<SearchObserver*>& list) {
  if (on()) list.push_back(observer());
}

void RunTimeline::beforeLeg(SolveOptions& so) { so.session.comm.events = commEvents(); }

void RunTimeline::afterLeg(Leg& leg) {
  const int workers = static_cast<int>(leg.workers->size());
  search(leg.start, leg.end, std::max(1, workers), workers > 0, leg.stats.nodes);
  if (leg.saved) checkpoint(leg.savedFrom, leg.savedTo, leg.savedTasks);
}

// Rank 0's epoch is its clock now; every other rank puts its epoch where rank 0's is: exactly on
// rank 0's kernel clock, else by ping-pong (comm::rootClockNow), with its error bound kept.
void RunTimeline::align() {
  if (!on()) return;
  if (ctx_.size == 1) return tl_->setEpoch(Clock::now());
  const comm::RootClock root = comm::rootClockNow(ctx_.world);
  tl_->setEpoch(root.now);
  clockErrorNs_ = root.errorNs;
}

void RunTimeline::search(Clock::time_point start, Clock::time_point end, int workers, bool parallel,
                         std::uint64_t nodes) {
  if (!on()) return;
  workers_ = std::max(workers_, workers);
  tl_->span(TimelineKind::Search, Timeline::kMainLane, start, end, legs_++);
  comm_->nextSession();
  if (!parallel) tl_->span(TimelineKind::Task, 0, start, end, 0, static_cast<std::int64_t>(nodes));
}

void RunTimeline::checkpoint(Clock::time_point start, Clock::time_point end, std::uint64_t tasks) {
  if (on()) tl_->span(TimelineKind::Checkpoint, Timeline::kMainLane, start, end, static_cast<std::int64_t>(tasks));
}

void RunTimeline::write() {
  if (!on()) return;
  const std::vector<TimelineEvent> events = tl_->events();
  const std::string mine = traceEventsOfRank(ctx_.rank, workers_, events, tl_->firstDropNs(), tl_->dropped());
  // What each rank kept and dropped, for the file's otherData.
  const double firstDropUs = tl_->dropped() > 0 ? 1e-3 * static_cast<double>(tl_->firstDropNs()) : -1.0;
  const double mineCounts[4] = {static_cast<double>(events.size()), static_cast<double>(tl_->dropped()), firstDropUs,
                                1e-3 * static_cast<double>(clockErrorNs_)};
  const std::vector<double> counts = ctx_.size > 1 ? comm::gatherDoubles(ctx_.world, mineCounts)
                                                   : std::vector<double>(mineCounts, mineCounts + 4);
  // Rank 0 writes FILE (safe_file.hpp); a failure there does not stop the other ranks' parts from
  // streaming in, and is reported after the answer (exit code 4).
  std::optional<OutputFile> file;
  std::ostream* out = nullptr;
  if (ctx_.rank == 0) {
    file.emplace("--timeline", ctx_.opts.timelineFile);
    out = &file->stream();
    *out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  }
  // Every part's lines start with ",\n": the first one's goes.
  const auto take = [&](int r, std::string_view part) { *out << (r == 0 ? part.substr(2) : part); };
  if (ctx_.size > 1) comm::streamToRoot(ctx_.world, mine, take);
  else take(0, mine);
  if (ctx_.rank != 0) return;
  nlohmann::json ranks = nlohmann::json::array();
  std::uint64_t dropped = 0;
  for (int r = 0; r < ctx_.size; ++r) {
    const double* c = &counts[4 * static_cast<std::size_t>(r)];
    nlohmann::json one = {{"rank", r}, {"events", static_cast<std::uint64_t>(c[0])}, {"dropped", static_cast<std::uint64_t>(c[1])},
                          {"clock_error_us", c[3]}};
    if (c[1] > 0) one["complete_until_us"] = c[2];
    dropped += static_cast<std::uint64_t>(c[1]);
    ranks.push_back(one);
  }
  const nlohmann::json other = {
      {"app", ctx_.name},
      {"command", ctx_.argv},
      {"ranks", ctx_.size},
      {"workers_per_rank", workers_},
      {"cap_per_rank", ctx_.opts.timelineCap},
      {"clock", "microseconds since rank 0 started recording; a rank on rank 0's kernel clock reads it exactly, any other "
                "estimated it by ping-pong (shortest of 8 round trips), at most per_rank's clock_error_us off"},
      {"idle", "a worker's idle spans are the gaps between its tasks within each search"},
      {"per_rank", ranks}};
  *out << "\n],\"otherData\":" << other.dump() << "}\n";
  if (const auto error = file->commit()) {
    ctx_.undelivered.push_back(*error);
    return;
  }
  if (dropped > 0)
    ctx_.log->warn("--timeline: the cap of {} events per rank was reached; {} events were dropped and each rank's "
                   "part is complete only up to its complete_until_us (otherData.per_rank in {})",
                   ctx_.opts.timelineCap, dropped, ctx_.opts.timelineFile);
}

}  // namespace jackdaw::app
