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
  s.parallel.live = &ctx.live;
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
  if (!o.resumeDir.empty()) {
    LoadedCheckpoint loaded = readCheckpoint(o.resumeDir, ctx.identity, ctx.rank, ctx.size, o.memoryLimit);
    cp_.resume = true;
    cp_.from = std::move(loaded.records);
    facts_ = std::move(loaded.facts);
    previous_ = std::move(loaded.manifest);
    const auto& before = previous_["seconds_so_far"];
    before_ = before.is_number() ? before.get<double>() : 0.0;
    if (ctx.rank == 0)
      ctx.checkpoint["resumed_from"] = {{"dir", o.resumeDir},
                                        {"sequence", previous_.value("sequence", 0)},
                                        {"ranks", previous_.value("ranks", 0)},
                                        {"tasks", previous_.value("tasks", 0)},
                                        {"nodes_so_far", previous_.value("nodes_so_far", 0)}};
  }
  if (!o.checkpointDir.empty()) {
    prepareCheckpointDir(o.checkpointDir);
    // Rank 0 takes the folder for this job before any rank searches; a refusal is bad input, and
    // reaches the other ranks through the set-up check that follows (one message, every rank exits 2).
    if (ctx.rank == 0 && !ctx.checkpointLock) {
      std::error_code ec;
      const bool resumingIt = !o.resumeDir.empty() && std::filesystem::equivalent(o.resumeDir, o.checkpointDir, ec);
      ClaimNotes notes;
      ctx.checkpointLock =
          claimCheckpointDir(o.checkpointDir, ctx.identity, ctx.name, o.checkpointOverwrite, resumingIt, notes);
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
  if (ctx_.rank == 0 && active()) ctx_.checkpoint["seconds_this_run"] = seconds_;
  // Every rank saved or none did: the stop reason they decide on is the same everywhere.
  if (!cp_.saved) {
    ctx_.checkpointNote.clear();  // the search ended: nothing left to continue
    return false;
  }
  const auto& o = ctx_.opts;
  const LegSummary leg{o.skeleton,  ctx_.size,      o.threads, legSeconds, seconds(),
                       soFar.nodes, cp_.savedTasks, incumbent, cp_.savedNodes};
  wrote_ = true;
  savedTasks_ = cp_.savedTasks;
  const auto t0 = std::chrono::steady_clock::now();
  nlohmann::json manifest = writeCheckpoint(ctx_, o.checkpointDir, *cp_.saved, leg, previous_, ctx_.checkpointLock.get());
  const double writeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool signalled = comm::anyRank(ctx_.world, ctx_.stop.requested());
  if (ctx_.rank == 0) {
    nlohmann::json bytes = nlohmann::json::array();
    for (const auto& f : manifest["files"]) bytes.push_back(f["bytes"]);
    ctx_.checkpoint["written"] = {{"dir", o.checkpointDir},         {"sequence", manifest["sequence"]},
                                  {"tasks", manifest["tasks"]},      {"nodes_so_far", soFar.nodes},
                                  {"incumbent", incumbent},
                                  {"bytes_per_rank", bytes},         {"write_seconds", writeSeconds}};
    ctx_.checkpointNote = "CHECKPOINT: saved in " + o.checkpointDir + " (set " + manifest["sequence"].dump() + ", " +
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

void GrainCheck::add(const std::vector<WorkerReport>& mine, const distributed::Report& all) {
  // Rank 0 of several sees every rank's workers (its own among them); any other run, its own.
  int workers = 0;
  chosen_.clear();
  const auto take = [&](const std::vector<WorkerReport>& ws) {
    for (const auto& w : ws) {
      largest_ = std::max(largest_, w.largestTaskNodes);
      if (w.grain > 0) chosen_.push_back(w.grain);
      changes_ += w.grainChanges;
    }
    workers += static_cast<int>(ws.size());
  };
  if (all.ranks.empty()) take(mine);
  for (const auto& r : all.ranks) take(r.workers);
  workers_ = std::max(workers_, workers);
}

// What -d auto / -b auto chose: the workers' final settings and how often they changed them.
void GrainCheck::reportAutomatic(AppContext& ctx) const {
  const auto& o = ctx.opts;
  if (!(o.spawnDepthAuto || o.budgetAuto) || chosen_.empty()) return;
  std::vector<std::uint64_t> v = chosen_;
  std::sort(v.begin(), v.end());
  const bool depth = o.spawnDepthAuto;
  nlohmann::json a = {{"setting", depth ? "spawn_depth" : "budget"},
                      {"target_ms", o.taskTargetMs},
                      {"min", v.front()},
                      {"median", v[v.size() / 2]},
                      {"max", v.back()},
                      {"changes", changes_}};
  a["why"] = depth ? "the cutoff started at " + std::to_string(kAutoStartDepth) +
                         " and deepened each time a task had run past the target while workers were hungry "
                         "(the task split off its shallowest open level); values: the deepest cutoff each worker saw"
                   : "each worker retuned its budget at every split so that the work between two splits lasts the "
                     "target (at most 4x per split); values: the workers' final budgets in backtracks";
  ctx.grain["automatic"] = a;
  ctx.log->info("{} auto: {} (median {}, range {}..{}) after {} change(s), aiming at {} ms a slice",
                depth ? "spawn depth" : "budget", depth ? "deepest cutoff" : "final budget", v[v.size() / 2], v.front(),
                v.back(), changes_, o.taskTargetMs);
}

void GrainCheck::report(AppContext& ctx, std::uint64_t nodes) const {
  // Sequential runs have no tasks to compare; tiny searches are over before grain matters.
  constexpr std::uint64_t kWorthTelling = 1'000'000;
  if (ctx.rank != 0 || workers_ == 0 || nodes == 0) return;
  const double share = static_cast<double>(largest_) / static_cast<double>(nodes);
  ctx.grain = {{"largest_task_nodes", largest_}, {"nodes", nodes}, {"largest_task_share", share}, {"workers", workers_}};
  reportAutomatic(ctx);
  if (workers_ < 2 || largest_ == 0) return;
  // While the largest task ran (share × nodes at one worker's speed), the other workers had room for
  // (workers − 1) × that many nodes and visited at most the rest: an upper bound on how busy they were.
  const double othersBusy = std::min(1.0, (1.0 - share) / ((workers_ - 1) * share));
  ctx.grain["others_busy_at_most"] = othersBusy;
  if (othersBusy > 0.5 || nodes < kWorthTelling) return;
  const auto& o = ctx.opts;
  std::string advice;
  if (o.spawnDepthAuto || o.budgetAuto)
    advice = "the automatic grain splits a task only after --task-target-ms and while workers are hungry";
  else if (o.skeleton == skeletons::DepthBounded::name)
    advice = "tasks are cut only above --spawn-depth " + std::to_string(o.spawnDepth) +
             ": -d auto deepens the cutoff where a task runs long while workers are hungry, a larger -d cuts "
             "deeper everywhere";
  else if (o.skeleton == skeletons::Ordered::name)
    advice = "tasks are cut only above --spawn-depth " + std::to_string(o.spawnDepth) +
             ": a larger -d cuts deeper, and --skeleton budget or stack_stealing split work while it runs";
  else if (o.skeleton == skeletons::Budget::name)
    advice = "a task splits off work only after --budget " + std::to_string(o.budget) +
             " backtracks: a smaller -b splits sooner, -b auto picks it from measured time";
  else
    advice = "the other workers found little to take from it";
  ctx.log->warn("one task visited {:.0f}% of the nodes ({} of {}): while it ran, the other {} worker(s) were busy at most "
                "{:.0f}% of the time (at equal speed per node), so the run was mostly sequential; {}",
                100 * share, largest_, nodes, workers_ - 1, 100 * othersBusy, advice);
}

void RunStats::afterLeg(Leg& leg) {
  if (!leg.workers->empty()) addWorkerReports(ctx_, *leg.workers);
  if (ctx_.size > 1 && ctx_.rank == 0) {
    ctx_.distributed = distributedJson(*leg.ranks);
    ctx_.distributed["board"]["scheme"] = comm::boardSchemeName(ctx_.opts.steal.board);
    if (ctx_.opts.steal.board == comm::BoardScheme::Sample) ctx_.distributed["board"]["sample"] = ctx_.opts.steal.boardSample;
    // Which one-sided path MPI gave the board, or the messages it fell back to (board.hpp).
    ctx_.distributed["board"]["transport"] = leg.ranks->boardTransport;
    if (!leg.ranks->boardWindow.empty()) ctx_.distributed["board"]["window"] = leg.ranks->boardWindow;
  }
}

void RunStats::finish(Leg& last) { ctx_.lastRun = {true, last.stats, last.allSeconds, last.stop}; }

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
  if (!ctx_.trace) return;
  if (optimisation_) list.push_back(&history_);
  else list.push_back(ctx_.trace.get());
}

void TraceRun::beforeLeg(SolveOptions&) {
  if (recordsSearch()) cpu0_ = threadCpuNs();
}

void TraceRun::afterLeg(Leg& leg) {
  if (!recordsSearch()) return;
  if (!skeletons::isParallel(ctx_.opts.skeleton)) ctx_.trace->sequentialTask(leg.stats.nodes, threadCpuNs() - cpu0_, rootBytes_);
  ctx_.trace->searched(tracedSearch(ctx_, kind_, leg.seconds, leg.stop, leg.stats.nodes, *leg.workers));
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
