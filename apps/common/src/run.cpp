#include "jackdaw/app/run.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "jackdaw/comm/collectives.hpp"
#include "jackdaw/comm/failure.hpp"
#include "jackdaw/core/cpu_set.hpp"

namespace jackdaw::app {

void checkSetupAcrossRanks(AppContext& ctx) {
  std::optional<std::string> error;
  if (ctx.test && ctx.test->failRank == ctx.rank)
    error = "rank " + std::to_string(ctx.rank) + " cannot read its input (simulated by --test-fail-rank)";
  if (ctx.test && ctx.test->setUpPause > 0)
    std::this_thread::sleep_for(std::chrono::duration<double>(ctx.test->setUpPause));
  if (ctx.size == 1) {
    if (error) throw InputError(*error);
    ctx.setupChecked = true;
    return;
  }
  if (ctx.setupChecked) return;
  const bool ok = comm::collectiveCheck(ctx.world, error);
  ctx.setupChecked = true;
  if (!ok) throw SetupFailedElsewhere();
}

void agreeOnSetUpSignal(AppContext& ctx) {
  if (ctx.size < 2 || !ctx.signals) return;
  if (comm::anyRank(ctx.world, ctx.signals->signalledAtSetUp())) throw InterruptedAtSetUp();
  if (ctx.test && ctx.test->startPauseRank == ctx.rank)
    std::this_thread::sleep_for(std::chrono::duration<double>(TestHooks::kStartPauseSeconds));
}

void useAutoSkeleton(AppContext& ctx, std::string_view name) {
  if (!ctx.opts.skeletonAuto || ctx.opts.skeleton == name) return;
  ctx.opts.skeleton = name;
  settleGrain(ctx.opts);
  validate(ctx.opts);
  if (ctx.rank == 0) ctx.log->info("--skeleton auto: {} ({} rank(s))", ctx.opts.skeleton, ctx.size);
}

skeletons::Settings skeletonSettings(AppContext& ctx, std::vector<WorkerReport>* reports,
                                     std::vector<SearchObserver*> observers) {
  const auto& o = ctx.opts;
  skeletons::Settings s;
  s.parallel.runtime.threads = o.threads;
  s.parallel.runtime.bind = o.bind;
  s.parallel.runtime.rate = o.workRate;
  s.parallel.workers = reports;
  s.parallel.live = &ctx.features->progress.live;
  s.parallel.observers = std::move(observers);
  s.parallel.splitOnHunger = o.splitOnHunger;
  s.spawnDepth = o.spawnDepthAuto ? kAutoStartDepth : o.spawnDepth;
  s.budget = o.budget;
  s.spawnDepthAuto = o.spawnDepthAuto;
  s.budgetAuto = o.budgetAuto;
  s.grainTargetSeconds = o.taskTargetMs / 1000.0;
  s.chunked = o.chunked;
  s.discrepancy = o.discrepancy;
  return s;
}

comm::SessionConfig sessionConfig(const AppContext& ctx) {
  comm::SessionConfig c;
  c.world = ctx.world;
  const auto& o = ctx.opts;
  c.steal = o.steal;
  c.policies = ctx.policies;
  c.boardTransport = o.boardTransport;
  c.comm = o.comm;  // --steal, --seed-tree, --seed-redirect, --steal-retry-max-us, --steal-hold-us, --doorbell, --watchdog
  c.comm.stealHalf = o.comm.stealHalf || o.chunked;
  return c;
}

void noteSharedCpus(const AppContext& ctx) {
  const int want = ctx.opts.threads;
  // Every rank parses the same command line, so they all return here or none does.
  if (want <= 0 || !skeletons::isParallel(ctx.opts.skeleton)) return;
  const int cpus = CpuSet::current().count();
  // The lowest rank with fewer CPUs than workers, and its CPU count.
  std::optional<comm::RankValue> lowest;
  if (ctx.size > 1) lowest = comm::lowestRankWith(ctx.world, want > cpus, cpus);
  else if (want > cpus) lowest = comm::RankValue{0, cpus};
  if (ctx.rank != 0 || !lowest) return;
  if (ctx.size == 1) {
    ctx.log->warn("--threads {0}: this process may run on only {1} CPU(s), so its {0} workers share them", want,
                  lowest->value);
    return;
  }
  ctx.log->warn(
      "--threads {0}: rank {1} may run on only {2} CPU(s), so its {0} workers share them. mpirun binds each "
      "rank to one core by default: add --bind-to none, or --map-by slot:PE={0} to give each rank {0} cores; "
      "under Slurm, ask for --cpus-per-task={0}",
      want, lowest->rank, lowest->value);
}

CheckpointLegs::CheckpointLegs(AppContext& ctx) : ctx_(ctx) {
  const auto& o = ctx.opts;
  CheckpointState& state = ctx.features->checkpoint;
  if (!o.resumeDir.empty()) {
    LoadedCheckpoint loaded = readCheckpoint(o.resumeDir, state.identity, ctx.rank, ctx.size, o.memoryLimit);
    cp_.resume = true;
    cp_.from = std::move(loaded.records);
    facts_ = std::move(loaded.facts);
    previous_ = std::move(loaded.manifest);
    const auto& before = previous_["seconds_so_far"];
    before_ = before.is_number() ? before.get<double>() : 0.0;
    if (ctx.rank == 0)
      state.section["resumed_from"] = {{"dir", o.resumeDir},
                                       {"sequence", previous_.value("sequence", 0)},
                                       {"ranks", previous_.value("ranks", 0)},
                                       {"tasks", previous_.value("tasks", 0)},
                                       {"nodes_so_far", previous_.value("nodes_so_far", 0)}};
  }
  if (!o.checkpointDir.empty()) {
    prepareCheckpointDir(o.checkpointDir);
    // Rank 0 takes the folder for this job before any rank searches; a refusal is bad input, and
    // reaches the other ranks through the set-up check that follows (one message, every rank exits 2).
    if (ctx.rank == 0 && !state.lock) {
      std::error_code ec;
      const bool resumingIt = !o.resumeDir.empty() && std::filesystem::equivalent(o.resumeDir, o.checkpointDir, ec);
      ClaimNotes notes;
      state.lock = claimCheckpointDir(o.checkpointDir, state.identity, ctx.name, o.checkpointOverwrite, resumingIt, notes);
      for (const auto& w : notes.warnings) ctx.log->warn("{}", w);
    }
    cp_.keep = true;
    every_ = o.checkpointEvery > 0;
  }
}

void CheckpointLegs::beforeLeg(SolveOptions& so) {
  startLeg();
  so.stop = &legStop();
  so.checkpointing = checkpointing();
}

void CheckpointLegs::afterLeg(Leg& leg) {
  leg.savedFrom = Leg::Clock::now();
  leg.again = finishLeg(leg.stats, leg.seconds, leg.incumbent);
  leg.saved = wrote();
  leg.savedTo = Leg::Clock::now();
  leg.savedTasks = savedTasks();
  leg.allSeconds = seconds();
}

void CheckpointLegs::startLeg() {
  if (!every_) return;
  leg_.emplace();
  legOver_.store(false);
  timer_ = std::thread([this, due = std::chrono::steady_clock::now() + std::chrono::duration<double>(ctx_.opts.checkpointEvery)] {
    while (!legOver_.load()) {
      if (ctx_.stop.requested()) leg_->request(ctx_.stop.reason());  // a signal ends the leg as always
      if (std::chrono::steady_clock::now() >= due) leg_->request(StopReason::Interrupted);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
}

bool CheckpointLegs::finishLeg(const SearchStats& soFar, double legSeconds, const nlohmann::json& incumbent) {
  if (timer_.joinable()) {
    legOver_.store(true);
    timer_.join();
  }
  seconds_ += legSeconds;
  wrote_ = false;
  CheckpointState& state = ctx_.features->checkpoint;
  if (ctx_.rank == 0 && active()) state.section["seconds_this_run"] = seconds_;
  // Every rank saved or none did: the stop reason they decide on is the same everywhere.
  if (!cp_.saved) {
    state.note.clear();  // the search ended: nothing left to continue
    return false;
  }
  const auto& o = ctx_.opts;
  const LegSummary leg{o.skeleton,  ctx_.size,      o.threads, legSeconds, seconds(),
                       soFar.nodes, cp_.savedTasks, incumbent, cp_.savedNodes};
  wrote_ = true;
  savedTasks_ = cp_.savedTasks;
  const auto t0 = std::chrono::steady_clock::now();
  nlohmann::json manifest = writeCheckpoint(ctx_, o.checkpointDir, *cp_.saved, leg, previous_, state.lock.get());
  const double writeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool signalled = comm::anyRank(ctx_.world, ctx_.stop.requested());
  if (ctx_.rank == 0) {
    nlohmann::json bytes = nlohmann::json::array();
    for (const auto& f : manifest["files"]) bytes.push_back(f["bytes"]);
    state.section["written"] = {{"dir", o.checkpointDir},         {"sequence", manifest["sequence"]},
                                {"tasks", manifest["tasks"]},      {"nodes_so_far", soFar.nodes},
                                {"incumbent", incumbent},
                                {"bytes_per_rank", bytes},         {"write_seconds", writeSeconds}};
    state.note = "CHECKPOINT: saved in " + o.checkpointDir + " (set " + manifest["sequence"].dump() + ", " +
                 manifest["tasks"].dump() + " tasks left); continue with --resume " + o.checkpointDir;
    ctx_.log->info("checkpoint {} written to {} ({} tasks left)", manifest["sequence"].dump(), o.checkpointDir,
                   manifest["tasks"].dump());
  }
  if (!every_ || signalled) return false;
  // A pause for the timer: the next leg continues what this one saved.
  previous_ = std::move(manifest);
  cp_.resume = true;
  cp_.from.clear();
  cp_.from.push_back(std::move(*cp_.saved));
  cp_.saved.reset();
  return true;
}

void RunStats::afterLeg(Leg& leg) {
  if (!leg.workers->empty()) addWorkerReports(ctx_, *leg.workers);
  if (ctx_.size > 1 && ctx_.rank == 0) {
    nlohmann::json& d = ctx_.features->stats.distributed;
    d = distributedJson(*leg.ranks);
    d["board"]["scheme"] = comm::boardSchemeName(ctx_.opts.steal.board);
    if (ctx_.opts.steal.board == comm::BoardScheme::Sample) d["board"]["sample"] = ctx_.opts.steal.boardSample;
    // Which one-sided path MPI gave the board, or the messages it fell back to (board.hpp).
    d["board"]["transport"] = leg.ranks->boardTransport;
    if (!leg.ranks->boardWindow.empty()) d["board"]["window"] = leg.ranks->boardWindow;
  }
}

void RunStats::finish(Leg& last) { ctx_.features->stats.lastRun = {true, last.stats, last.allSeconds, last.stop}; }

TraceRecorder::Search tracedSearch(const AppContext& ctx, const char* kind, double seconds, StopReason stop,
                                   std::uint64_t nodes, const std::vector<WorkerReport>& reports) {
  TraceRecorder::Search t;
  t.kind = kind;
  t.parallel = skeletons::isParallel(ctx.opts.skeleton);
  t.workers = t.parallel ? std::max(1, static_cast<int>(reports.size())) : 1;
  t.wallSeconds = seconds;
  t.stop = stop;
  t.nodes = nodes;
  t.tasksRun = t.parallel ? 0 : 1;
  for (const auto& w : reports) t.tasksRun += w.tasks;
  return t;
}

void TraceRun::observers(std::vector<SearchObserver*>& list) {
  TraceRecorder* const recorder = ctx_.features->trace.recorder.get();
  if (!recorder) return;
  if (optimisation_) list.push_back(&history_);
  else list.push_back(recorder);
}

void TraceRun::beforeLeg(SolveOptions&) {
  if (recordsSearch()) cpu0_ = threadCpuNs();
}

void TraceRun::afterLeg(Leg& leg) {
  if (!recordsSearch()) return;
  TraceRecorder& recorder = *ctx_.features->trace.recorder;
  if (!skeletons::isParallel(ctx_.opts.skeleton)) recorder.sequentialTask(leg.stats.nodes, threadCpuNs() - cpu0_, rootBytes_);
  recorder.searched(tracedSearch(ctx_, kind_, leg.seconds, leg.stop, leg.stats.nodes, *leg.workers));
}

std::unique_ptr<SlowRank> slowRankFor(const AppContext& ctx) {
  requireRanks(ctx.opts.slowRanks, ctx.size);
  for (int r : ctx.opts.slowRanks)
    if (r == ctx.rank) return std::make_unique<SlowRank>(ctx.opts.slowdown, ctx.stop);
  return nullptr;
}

}  // namespace jackdaw::app

namespace jackdaw::app::detail {

SolveOptions solveOptions(AppContext& ctx, std::vector<WorkerReport>* reports, std::vector<SearchObserver*> observers,
                          bool frozen) {
  SolveOptions so;
  so.skeleton = ctx.opts.skeleton;
  so.settings = skeletonSettings(ctx, reports, std::move(observers));
  so.settings.parallel.frozenBound = frozen;
  so.session = sessionConfig(ctx);
  so.stop = &ctx.stop;
  return so;
}

void recordBoundRuns(AppContext& ctx, TraceRecorder& trace, const ObjectiveHistory& history, const BoundRuns& runs) {
  std::vector<std::string> notes;
  nlohmann::json extra = nlohmann::json::object();
  extra["answered_run"] = {{"nodes", runs.answeredNodes}, {"seconds", runs.answeredSeconds}};
  ctx.log->info("trace: the first run (the answer) is done: {} nodes in {:.2f} s", runs.answeredNodes, runs.answeredSeconds);
  const bool parallel = skeletons::isParallel(ctx.opts.skeleton);
  std::vector<WorkerReport> reports;
  if (!runs.optimum.is_null() && runs.answeredComplete) {
    if (runs.levelsPossible) {
      const auto levels = parallel ? history.below(runs.optimum.get<double>(), runs.maximise,
                                                   static_cast<std::size_t>(std::max(0, ctx.opts.traceLevels)))
                                   : std::vector<double>{};
      for (std::size_t i = 0; i < levels.size(); ++i) {
        const double b = levels[i];
        // A recording runs the search 2 + N times; say which run the progress lines now count.
        ctx.log->info("trace: recording level {} of {}, the incumbent frozen at {}", i + 1, levels.size(), b);
        trace.clear();
        const auto r = runs.search(b, true, reports);
        // Cut short (a signal): not kept; the recorded run below stops at once and its notes say so.
        if (r.stop == StopReason::Interrupted || r.stop == StopReason::Failed) break;
        trace.keepLevel(b, runs.maximise, r.seconds);
        // Each weaker level costs more than the last, roughly geometrically (brock200_4 -d 2: 40 K,
        // 79 K, 173 K, 528 K, 2.9 M, 19 M nodes; brock200_1's level 14 ran past 9 minutes): once one
        // has cost kLevelCostGuard times the answered run, the next would cost more still.
        if (i + 1 < levels.size() &&
            static_cast<double>(r.stats.nodes) > kLevelCostGuard * static_cast<double>(std::max<std::uint64_t>(runs.answeredNodes, 1))) {
          notes.push_back("Levels stopped after " + std::to_string(i + 1) + " of the " + std::to_string(levels.size()) +
                          " asked for: the last cost " + std::to_string(r.stats.nodes) + " nodes, over " +
                          std::to_string(static_cast<int>(kLevelCostGuard)) + " times the answered run's.");
          ctx.log->info("trace: level {} cost {} nodes, over {} times the answered run: no weaker level recorded", i + 1,
                        r.stats.nodes, kLevelCostGuard);
          break;
        }
      }
      if (parallel && ctx.opts.traceLevels > 0 && levels.empty())
        notes.push_back("No level recorded: the first run improved its incumbent only to the optimum.");
    }
    runs.boundByOptimum();
    extra["initial_bound"] = runs.optimum;
    notes.push_back(
        "Branch and bound: recorded in a later run given the optimum (" + runs.optimum.dump() +
        ") as its initial bound, so the tree does not depend on when the incumbent improves. That tree leaves out the "
        "nodes a real run explores before it finds the optimum (the answered run visited " +
        std::to_string(runs.answeredNodes) + ")" +
        (trace.levels() > 0 ? "; the levels hold them." : ": a real run visits at least as many."));
    ctx.log->info("trace: recording the run given the optimum {} as its bound", runs.optimum.dump());
  } else {
    notes.push_back("Branch and bound: the first run found no optimum to give the recorded run as its bound; the "
                    "recorded run searched as the first did.");
  }
  trace.clear();
  const std::uint64_t cpu0 = threadCpuNs();
  const auto r = runs.search(std::nullopt, false, reports);
  if (!parallel) trace.sequentialTask(r.stats.nodes, threadCpuNs() - cpu0, runs.rootBytes);
  auto t = tracedSearch(ctx, "optimisation", r.seconds, r.stop, r.stats.nodes, reports);
  t.notes = std::move(notes);
  t.extra = std::move(extra);
  trace.searched(std::move(t));
}

}  // namespace jackdaw::app::detail
