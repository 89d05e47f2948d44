// Runs a search with the skeleton the command line chose, on every rank of the job: the library
// call jackdaw::solve (distributed/solve.hpp) with its options taken from the command line, plus
// checkpoint legs, progress lines and the --stats sections. Every rank gets the whole result.
//
// The skeleton settings (-d, -b, --threads, --bind, --chunked, --discrepancy) and the distributed
// session (--policy and its constants, --seed) come from ctx.opts; per-worker statistics and the
// per-rank report are kept for --stats (StatsState, report.hpp); --progress lines are logged
// while it runs.
//
// --checkpoint DIR saves the work an interruption cuts short (and, with --checkpoint-every S, the
// search pauses every S seconds to save it, then goes on); --resume DIR continues a saved search
// on any number of ranks. See checkpoint.hpp for the folder.
//
// Each of these is a feature of the frame (run_feature.hpp): it hooks into the legs of the search
// and keeps what must outlast them in its state in ctx.features (feature_states.hpp); runChecked
// sets them up and runs the legs.
//
// --trace FILE records the search's task tree (trace_file.hpp). Enumeration and decision: the
// search itself. Branch and bound: the search runs first as usual (its answer is the one printed),
// then again with its optimum as the initial bound, and that second run is recorded.
#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "jackdaw/app/app_skeletons.hpp"
#include "jackdaw/app/checkpoint.hpp"
#include "jackdaw/app/context.hpp"
#include "jackdaw/app/feature_states.hpp"
#include "jackdaw/app/grain_check.hpp"
#include "jackdaw/app/progress.hpp"
#include "jackdaw/app/record_check.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/run_feature.hpp"
#include "jackdaw/app/signals.hpp"
#include "jackdaw/app/slow_rank.hpp"
#include "jackdaw/app/timeline_file.hpp"
#include "jackdaw/app/trace_file.hpp"
#include "jackdaw/comm/session.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/result.hpp"
#include "jackdaw/distributed/launch.hpp"
#include "jackdaw/distributed/model_check.hpp"
#include "jackdaw/distributed/search_work.hpp"
#include "jackdaw/distributed/solve.hpp"
#include "jackdaw/skeletons/auto.hpp"
#include "jackdaw/skeletons/table.hpp"

namespace jackdaw::app {

// Thrown on the ranks whose own set-up was fine when another rank's failed (rank 0 has printed
// that rank's message); runMain turns it into exit code 2.
struct SetupFailedElsewhere : std::runtime_error {
  SetupFailedElsewhere() : std::runtime_error("set-up failed on another rank") {}
};

// Thrown on every rank when the ranks agree that a signal reached one of them during set-up
// (signals.hpp): nothing was searched or saved; runMain turns it into exit code 3.
struct InterruptedAtSetUp : std::runtime_error {
  InterruptedAtSetUp() : std::runtime_error("interrupted before the search started") {}
};

// Just before the search, with several ranks: did a signal reach any rank during set-up? Then
// every rank throws InterruptedAtSetUp. Collective.
void agreeOnSetUpSignal(AppContext& ctx);

// Every rank reaches this point after reading its input, or fails before it and joins the same
// collective check from runMain: one message, every rank exits non-zero, nobody hangs.
void checkSetupAcrossRanks(AppContext& ctx);

// --skeleton auto: the skeleton `name` runs this search (ctx.opts.skeleton, with that skeleton's
// -d / -b defaults), checked as if given on the command line; logged at info. Any other
// --skeleton is left as it is.
void useAutoSkeleton(AppContext& ctx, std::string_view name);

// The skeleton a search of kind K runs with the skeletons Table compiles (skeletons/auto.hpp):
// under --skeleton auto, settled now for this search; --stats records it. runSearch calls it; an app
// that takes a path of its own for one skeleton (ns's seq) asks it first.
template <SearchKind K, class Table = AppSkeletons>
const std::string& settleSkeleton(AppContext& ctx) {
  if (ctx.opts.skeletonAuto)
    useAutoSkeleton(ctx, skeletons::autoChoice<K, Table>(autoRunsSequentially(ctx.opts, ctx.size)));
  return ctx.opts.skeleton;
}

// What the command line says about the skeleton (reports, live counters and observers included).
skeletons::Settings skeletonSettings(AppContext& ctx, std::vector<WorkerReport>* reports,
                                     std::vector<SearchObserver*> observers);
// What the command line says about the session between ranks.
comm::SessionConfig sessionConfig(const AppContext& ctx);
// --threads N beyond the CPUs some rank may use: the workers run anyway, sharing them; rank 0
// says so once, naming a rank and the launcher flags that give each rank N CPUs. Collective.
void noteSharedCpus(const AppContext& ctx);
// This rank's slow-down observer if --slow-ranks lists it, else null.
std::unique_ptr<SlowRank> slowRankFor(const AppContext& ctx);

// Checkpoint and resume around the searches of one runSearch call (non-template parts). Each
// leg resumes what the one before saved; after a leg, the checkpoint it saved is written and
// another leg follows if the --checkpoint-every timer stopped it.
class CheckpointLegs final : public RunFeature {
 public:
  // Set-up: reads and checks --resume DIR (this rank's records), prepares --checkpoint DIR.
  explicit CheckpointLegs(AppContext& ctx);
  void beforeLeg(SolveOptions& so) override;
  void afterLeg(Leg& leg) override;

  bool active() const { return cp_.keep || cp_.resume; }
  distributed::Checkpointing* checkpointing() { return active() ? &cp_ : nullptr; }
  // The stop flag of the next leg: with --checkpoint-every a leg ends at the timer as if
  // interrupted; signals reach it from ctx.stop either way.
  StopFlag& legStop() { return every_ ? *leg_ : ctx_.stop; }
  void startLeg();
  // After a leg: writes the checkpoint it saved (collective) and says whether another leg follows
  // (the timer stopped it and no rank got a signal). `incumbent`: the best objective so far (null:
  // none), recorded in the manifest.
  bool finishLeg(const SearchStats& soFar, double legSeconds, const nlohmann::json& incumbent);
  // Search seconds of every leg, this process's and those before the checkpoint it resumed.
  double seconds() const { return before_ + seconds_; }
  // The last finishLeg wrote a checkpoint, holding this many of this rank's tasks.
  bool wrote() const { return wrote_; }
  std::uint64_t savedTasks() const { return savedTasks_; }
  // --resume: what the manifest says of each record in checkpointing()->from.
  const std::vector<RecordFacts>& facts() const { return facts_; }

 private:
  AppContext& ctx_;
  distributed::Checkpointing cp_;
  std::vector<RecordFacts> facts_;
  nlohmann::json previous_;  // the manifest resumed from, if any
  bool every_ = false;
  std::optional<StopFlag> leg_;
  std::thread timer_;
  double seconds_ = 0;  // this process's legs
  double before_ = 0;   // the legs before the checkpoint resumed
  std::atomic<bool> legOver_{false};
  bool wrote_ = false;
  std::uint64_t savedTasks_ = 0;
};

// --stats: each leg's per-worker reports added to the workers' sums, rank 0's "distributed"
// section (of several ranks), and the last run (for a --stats document the app did not write);
// all in StatsState (report.hpp).
class RunStats final : public RunFeature {
 public:
  explicit RunStats(AppContext& ctx) : ctx_(ctx) {}
  void afterLeg(Leg& leg) override;
  void finish(Leg& last) override;

 private:
  AppContext& ctx_;
};

// --slow-ranks, --slowdown: this rank's slow-down observer, if the list names it.
class SlowRanks final : public RunFeature {
 public:
  explicit SlowRanks(const AppContext& ctx) : slow_(slowRankFor(ctx)) {}
  void observers(std::vector<SearchObserver*>& list) override {
    if (slow_) list.push_back(slow_.get());
  }

 private:
  std::unique_ptr<SlowRank> slow_;
};

// What the trace recorder is told about a search it recorded (`kind`: enumeration, optimisation
// or decision).
TraceRecorder::Search tracedSearch(const AppContext& ctx, const char* kind, double seconds, StopReason stop,
                                   std::uint64_t nodes, const std::vector<WorkerReport>& reports);

// --trace: enumeration and decision record the search itself; branch and bound keeps the
// incumbents it went through, for the recorded run that follows it (detail::recordBoundRun).
class TraceRun final : public RunFeature {
 public:
  // `rootBytes`: the root task's size on the wire (a sequential search is that one task).
  TraceRun(AppContext& ctx, const char* kind, bool optimisation, std::uint32_t rootBytes)
      : ctx_(ctx), kind_(kind), optimisation_(optimisation), rootBytes_(rootBytes) {}
  void observers(std::vector<SearchObserver*>& list) override;
  void beforeLeg(SolveOptions& so) override;
  void afterLeg(Leg& leg) override;
  const ObjectiveHistory& history() const { return history_; }

 private:
  bool recordsSearch() const { return ctx_.features->trace.recorder && !optimisation_; }
  AppContext& ctx_;
  const char* kind_;
  bool optimisation_;
  std::uint32_t rootBytes_;
  std::uint64_t cpu0_ = 0;     // this thread's CPU time when the leg began
  ObjectiveHistory history_;  // branch and bound: the incumbents, for the levels
};

namespace detail {
template <SearchKind K>
constexpr const char* kindName() {
  return isEnumeration<K> ? "enumeration" : isOptimisation<K> ? "optimisation" : "decision";
}

// A sequential search is one task: the root, its CPU time the calling thread's (seq runs there).
template <SearchModel M>
std::uint32_t rootWireBytes(const typename M::Node& root) {
  return distributed::taskWireBytes(jackdaw::detail::Task<typename M::Node>{root, 0, 0, 0});
}

// A model whose Space keeps hints from one search to the next (MaxClique's largest clique seen)
// may offer M::beginSearch(space) to forget them: a recorded run then starts as the first did.
template <SearchModel M>
void beginSearch(const typename M::Space& space) {
  if constexpr (requires { M::beginSearch(space); }) M::beginSearch(space);
}

// Branch and bound under --trace: the search again, with the optimum `answered` found as its
// initial bound, recorded (the tree then no longer depends on when the incumbent improves). Before
// it, with --trace-levels N, the levels: one run under each of the last N incumbents `history` saw
// before the optimum, that bound frozen, so the trace also says what each task costs before the
// optimum is known and where it finds better solutions.
// --trace-levels N stops early once a level has cost this many times the answered run's nodes.
inline constexpr double kLevelCostGuard = 20.0;

// What recordBoundRuns needs of the answered run and asks of each run it records.
struct BoundRuns {
  std::uint64_t answeredNodes = 0;
  double answeredSeconds = 0;
  bool answeredComplete = false;
  nlohmann::json optimum;     // the answered run's objective; null: none
  bool levelsPossible = false;  // the objective is a number (levels are bounds between numbers)
  bool maximise = true;
  struct Run {
    SearchStats stats;
    double seconds = 0;
    StopReason stop = StopReason::None;
  };
  // One search from the root: under `bound` (null: the params' own), frozen or not, its per-worker
  // reports into `reports`, observed by the trace if the skeleton is parallel.
  std::function<Run(const std::optional<double>& bound, bool frozen, std::vector<WorkerReport>& reports)> search;
  // The recorded run's bound, the optimum (called once, before that run).
  std::function<void()> boundByOptimum;
  std::uint32_t rootBytes = 0;  // the root task on the wire (a sequential search is that one task)
};
// The levels, the recorded run and what the trace says of them; every search through `runs.search`.
// Compiled once, in run.cpp: only the searches depend on the model.
void recordBoundRuns(AppContext& ctx, TraceRecorder& trace, const ObjectiveHistory& history, const BoundRuns& runs);

// The options of a search the frame runs besides the legs (a recorded run): the command line's.
SolveOptions solveOptions(AppContext& ctx, std::vector<WorkerReport>* reports, std::vector<SearchObserver*> observers,
                          bool frozen);

template <SearchModel M, SearchKind K, class Table>
void recordBoundRun(AppContext& ctx, TraceRecorder& trace, const typename M::Space& space, const typename M::Node& root,
                    typename SearchTypes<M, K>::Params params, const SearchResult<M, K>& answered,
                    const ObjectiveHistory& history) {
  using Obj = typename SearchTypes<M, K>::Obj;
  BoundRuns runs;
  runs.answeredNodes = answered.stats.nodes;
  runs.answeredSeconds = answered.seconds;
  runs.answeredComplete = answered.complete();
  if (answered.objective) runs.optimum = *answered.objective;
  runs.levelsPossible = std::is_arithmetic_v<Obj>;
  if constexpr (std::is_arithmetic_v<Obj>) runs.maximise = typename SearchTypes<M, K>::Better{}(Obj(1), Obj(0));
  runs.rootBytes = rootWireBytes<M>(root);
  runs.boundByOptimum = [&] {
    if (answered.objective && answered.complete()) params.initialBound = *answered.objective;
  };
  runs.search = [&](const std::optional<double>& bound, bool frozen, std::vector<WorkerReport>& reports) {
    auto p = params;
    if constexpr (std::is_arithmetic_v<Obj>)
      if (bound) p.initialBound = static_cast<Obj>(*bound);
    const bool parallel = skeletons::isParallel(ctx.opts.skeleton);
    beginSearch<M>(space);
    const auto r = solve<M, K, Table>(space, root, p,
                                      solveOptions(ctx, &reports, parallel ? std::vector<SearchObserver*>{&trace}
                                                                           : std::vector<SearchObserver*>{},
                                                   frozen));
    return BoundRuns::Run{r.stats, r.seconds, r.stop};
  };
  recordBoundRuns(ctx, trace, history, runs);
}

template <SearchModel M, SearchKind K, class Table>
SearchResult<M, K> runChecked(AppContext& ctx, const typename M::Space& space, typename M::Node root,
                              const typename SearchTypes<M, K>::Params& params) {
  settleSkeleton<K, Table>(ctx);
  const auto& o = ctx.opts;
  if (!skeletons::exists<Table>(o.skeleton))
    throw InputError("--skeleton " + o.skeleton + ": this program was built with " +
                     skeletons::join(skeletons::names<Table>()) + " only");
  if (ctx.size > 1 && !skeletons::isParallel(o.skeleton))
    throw InputError("--skeleton " + o.skeleton + " runs on one rank; with " + std::to_string(ctx.size) +
                     " ranks choose a parallel skeleton");
  // The features (run_feature.hpp). Those with set-up checks come first: a bad --resume DIR or
  // --timeline FILE is found before the ranks' collective set-up check.
  CheckpointLegs legs(ctx);
  if (legs.active() && !legs.checkpointing()->from.empty()) {
    // A record this build cannot read, or one no search could have saved (record_check.hpp), is bad
    // input, found here, before any rank starts searching.
    using Saved = SearchResult<M, K>;
    const auto& from = legs.checkpointing()->from;
    for (std::size_t i = 0; i < from.size(); ++i) {
      const RecordFacts& facts = legs.facts().at(i);
      try {
        checkSavedRecord<M, K>(space, params, distributed::decodeSaved<Saved, jackdaw::detail::Task<typename M::Node>>(from[i]), facts);
      } catch (const InputError& e) {
        const std::string what = e.what();
        throw InputError(what.rfind(facts.path, 0) == 0 ? what : facts.path + ": " + what);
      }
    }
  }
  RunTimeline timeline(ctx);
  checkSetupAcrossRanks(ctx);
  noteSharedCpus(ctx);
  TraceRecorder* const recorder = ctx.features->trace.recorder.get();
  TraceRun trace(ctx, kindName<K>(), isOptimisation<K>, recorder ? rootWireBytes<M>(root) : 0);
  SlowRanks slow(ctx);
  RunStats stats(ctx);
  GrainCheck grain(ctx);
  ProgressRun progress(ctx);
  // Their hooks run in this order: the trace's observer first and the timeline's last (a task's
  // span includes the slow-down); after a leg, the checkpoint legs before the timeline (which
  // draws the checkpoint written).
  RunFeature* const features[] = {&trace, &slow, &stats, &grain, &legs, &progress, &timeline};

  std::vector<WorkerReport> reports;
  std::vector<SearchObserver*> observers;
  for (auto* f : features) f->observers(observers);
  const skeletons::Settings settings = skeletonSettings(ctx, &reports, observers);
  for (auto* f : features) f->searching();
  // From here a signal stops the search cleanly (partial result, checkpoint) instead of the process.
  agreeOnSetUpSignal(ctx);
  if (ctx.signals) ctx.signals->searching();
  for (;;) {
    // The library call, one per leg: on one rank it runs the search here, on several it spans
    // them and every rank gets the whole result.
    distributed::Report report;
    SolveOptions so;
    so.skeleton = o.skeleton;
    so.settings = settings;
    so.session = sessionConfig(ctx);
    so.stop = &ctx.stop;
    so.report = &report;
    so.test = ctx.test ? &ctx.test->launch : nullptr;
    for (auto* f : features) f->beforeLeg(so);
    Leg leg;
    leg.workers = &reports;
    leg.ranks = &report;
    leg.start = Leg::Clock::now();
    auto r = solve<M, K, Table>(space, root, params, so);
    leg.end = Leg::Clock::now();
    leg.stats = r.stats;
    leg.seconds = leg.allSeconds = r.seconds;
    leg.stop = r.stop;
    if constexpr (!isEnumeration<K> && std::is_arithmetic_v<typename SearchTypes<M, K>::Obj>)
      if (r.objective) leg.incumbent = *r.objective;
    for (auto* f : features) f->afterLeg(leg);
    if (leg.again) {
      reports.clear();
      continue;
    }
    for (auto* f : features) f->finish(leg);
    if constexpr (isOptimisation<K>)
      if (recorder) recordBoundRun<M, K, Table>(ctx, *recorder, space, root, params, r, trace.history());
    r.seconds = leg.allSeconds;
    return r;
  }
}
}  // namespace detail

// Runs the model M with kind K. A mistake in the model is one static_assert naming the requirement
// (distributed/model_check.hpp). Table is the skeletons compiled in (app_skeletons.hpp: all, unless
// the build lists fewer); an app that needs only some names them, skeletons::Only<skeletons::Budget>.
template <class M, class K, class Table = AppSkeletons, class S = jackdaw::detail::SpaceOrNone<M>,
          class R = jackdaw::detail::NodeOrNone<M>,
          class P = jackdaw::detail::ParamsOrDefault<M>>
auto runSearch(AppContext& ctx, const S& space, R root, const P& params) {
  if constexpr (!distributed::checkModelForRanks<M, K, S, R, P>()) {
    return jackdaw::detail::UncheckedResult<M, K>{};
  } else {
    ctx.startup.searchStarts();
    return detail::runChecked<M, K, Table>(ctx, space, typename M::Node(std::move(root)), params);
  }
}

}  // namespace jackdaw::app
