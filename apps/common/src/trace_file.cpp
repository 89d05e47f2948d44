#include "jackdaw/app/trace_file.hpp"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>

#include "jackdaw/app/report.hpp"
#include "jackdaw/app/safe_file.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/skeletons/table.hpp"
#include "jackdaw/trace/trace.hpp"

namespace jackdaw::app {

namespace {
std::string commandLine(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$*?;&|<>()") == std::string::npos;
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

std::string joinNotes(const std::vector<std::string>& notes) {
  std::string out;
  for (const auto& n : notes) out += (out.empty() ? "" : " ") + n;
  return out;
}
}  // namespace

std::vector<double> ObjectiveHistory::below(double optimum, bool maximise, std::size_t n) const {
  std::vector<double> v;
  {
    std::lock_guard lock(m_);
    v = values_;
  }
  std::erase_if(v, [&](double x) { return maximise ? !(x < optimum) : !(x > optimum); });
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  if (maximise) std::reverse(v.begin(), v.end());
  if (v.size() > n) v.resize(n);
  return v;
}

std::string cpuModelName() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string v = line.substr(colon + 1);
    v.erase(0, v.find_first_not_of(" \t"));
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.pop_back();
    if (!v.empty()) return v;
  }
  return "unknown";
}

TraceRecorder::TraceRecorder(const AppContext& ctx) : file_(ctx.opts.traceFile), mainCpuAtStart_(threadCpuNs()) {
  if (ctx.size > 1)
    throw InputError("--trace records on one rank only (this job has " + std::to_string(ctx.size) +
                     "): the task tree of budget and depth_bounded does not depend on the ranks, so record on one "
                     "rank and replay the trace on as many simulated ranks as you like");
  // FILE itself was checked by runMain, with the other outputs.
}

void TraceRecorder::taskSpawned(const TaskSpawn& s) {
  Shard& sh = shard(s.worker);
  std::lock_guard lock(sh.m);
  sh.spawns.push_back(s);
}

void TraceRecorder::taskFinished(const TaskSpan& s) {
  Shard& sh = shard(s.worker);
  std::lock_guard lock(sh.m);
  sh.finished.push_back({s.id, s.nodes, s.cpuNs});
}

void TraceRecorder::solutionFound(const SolutionFound& f) {
  Shard& sh = shard(f.worker);
  std::lock_guard lock(sh.m);
  sh.solutions.push_back(f);
}

void TraceRecorder::clear() {
  for (auto& sh : shards_) {
    std::lock_guard lock(sh.m);
    sh.spawns.clear();
    sh.finished.clear();
    sh.solutions.clear();
  }
  search_.reset();
}

void TraceRecorder::keepLevel(double bound, bool maximise, double seconds) {
  maximise_ = maximise;
  levels_.push_back({bound, seconds, assemble()});
  clear();
}

TraceRecorder::Tree TraceRecorder::assemble() {
  // The records in id order: a spawn for every id 0..n-1, a finish for every task that ran.
  Tree tree;
  std::vector<TaskSpawn> spawns;
  std::vector<Finished> finished;
  for (auto& sh : shards_) {
    std::lock_guard lock(sh.m);
    spawns.insert(spawns.end(), sh.spawns.begin(), sh.spawns.end());
    finished.insert(finished.end(), sh.finished.begin(), sh.finished.end());
    tree.solutions.insert(tree.solutions.end(), sh.solutions.begin(), sh.solutions.end());
  }
  std::uint64_t n = 0;
  for (const auto& e : spawns) n = std::max(n, e.id + 1);
  auto& tasks = tree.tasks;
  tasks.resize(static_cast<std::size_t>(n));
  tree.keys.assign(tasks.size(), 0);
  std::vector<char> seen(tasks.size(), 0), ran(tasks.size(), 0);
  for (const auto& e : spawns) {
    auto& r = tasks[static_cast<std::size_t>(e.id)];
    r.parent = e.parent == kNoParentTask ? trace::kNoParent : e.parent;
    r.afterNodes = e.afterNodes;
    r.depth = static_cast<std::uint32_t>(std::max(0, e.depth));
    r.bytes = e.bytes;
    tree.keys[static_cast<std::size_t>(e.id)] = e.key;
    seen[static_cast<std::size_t>(e.id)] = 1;
  }
  for (const auto& f : finished) {
    if (f.id >= n) throw std::logic_error("--trace: a task finished that was never spawned (id " + std::to_string(f.id) + ")");
    auto& r = tasks[static_cast<std::size_t>(f.id)];
    r.nodes = f.nodes;
    r.cpuNs = f.cpuNs;
    ran[static_cast<std::size_t>(f.id)] = 1;
  }
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (!seen[i]) throw std::logic_error("--trace: task id " + std::to_string(i) + " was never spawned");
    if (!ran[i]) ++tree.unfinished;
  }
  return tree;
}

namespace {
// Each task of `weak` as a task of `strong`: the same key under the parent's match (a root under
// no parent); the k-th of equal keys under one parent matches the k-th. kNoTask: not in `strong`.
std::vector<std::uint64_t> matchTasks(const std::vector<trace::TaskRecord>& weak, const std::vector<std::uint64_t>& weakKeys,
                                      const std::vector<trace::TaskRecord>& strong,
                                      const std::vector<std::uint64_t>& strongKeys) {
  using Slot = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>;  // parent, key, occurrence
  std::map<Slot, std::uint64_t> index;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> seen;
  for (std::uint64_t id = 0; id < strong.size(); ++id) {
    const std::uint64_t parent = strong[id].parent == trace::kNoParent ? trace::kNoTask : strong[id].parent;
    index[{parent, strongKeys[id], seen[{parent, strongKeys[id]}]++}] = id;
  }
  seen.clear();
  std::vector<std::uint64_t> up(weak.size(), trace::kNoTask);
  for (std::uint64_t id = 0; id < weak.size(); ++id) {
    std::uint64_t parent = trace::kNoTask;
    if (weak[id].parent != trace::kNoParent) {
      parent = up[weak[id].parent];
      if (parent == trace::kNoTask) continue;  // pruned above it
    }
    const std::uint64_t k = seen[{weak[id].parent, weakKeys[id]}]++;
    const auto it = index.find({parent, weakKeys[id], k});
    if (it != index.end()) up[id] = it->second;
  }
  return up;
}

// Per task, the solutions that would each have improved on the last: by task, then afterNodes.
std::vector<trace::Improvement> improvements(std::vector<SolutionFound> found, bool maximise, std::uint64_t& outside) {
  std::sort(found.begin(), found.end(), [](const SolutionFound& a, const SolutionFound& b) {
    return a.task != b.task ? a.task < b.task : a.afterNodes < b.afterNodes;
  });
  std::vector<trace::Improvement> out;
  for (const auto& f : found) {
    if (f.task == kNoParentTask) {
      ++outside;
      continue;
    }
    if (!out.empty() && out.back().task == f.task &&
        !(maximise ? f.objective > out.back().objective : f.objective < out.back().objective))
      continue;
    out.push_back({f.task, f.afterNodes, f.objective});
  }
  return out;
}
}  // namespace

void TraceRecorder::sequentialTask(std::uint64_t nodes, std::uint64_t cpuNs, std::uint32_t bytes) {
  Shard& sh = shard(0);
  std::lock_guard lock(sh.m);
  TaskSpawn root;
  root.id = 0;
  root.depth = 0;
  root.bytes = bytes;
  sh.spawns.push_back(root);
  sh.finished.push_back({0, nodes, cpuNs});
}

void TraceRecorder::searched(Search s) { search_ = std::move(s); }

void TraceRecorder::write(const AppContext& ctx, const nlohmann::json& answer, const SearchStats& printed,
                          double seconds, StopReason stop) {
  if (ctx.rank != 0 || written_) return;
  written_ = true;
  const auto& o = ctx.opts;
  Search s;
  std::vector<std::string> notes;
  if (search_) {
    s = *search_;
  } else {
    // The app ran a sequential search itself, outside runSearch: one task, as far as the frame knows.
    s.kind = "unknown";
    s.parallel = false;
    s.wallSeconds = seconds;
    s.stop = stop;
    s.nodes = printed.nodes;
    s.tasksRun = 1;
    clear();
    sequentialTask(printed.nodes, threadCpuNs() - mainCpuAtStart_, 0);
    notes.push_back("The app ran its sequential search itself (not through app::runSearch): the frame does not know "
                    "its kind or the root's size on the wire (bytes 0), and the task's CPU time is the main "
                    "thread's since start-up.");
  }

  Tree main = assemble();
  const std::uint64_t unfinished = main.unfinished;
  trace::Trace t;
  t.tasks = std::move(main.tasks);
  const std::uint64_t nodes = t.totalNodes(), cpuNs = t.totalCpuNs();

  // Levels, strongest first: each matched to the tree above it.
  nlohmann::json levelRuns = nlohmann::json::array();
  std::uint64_t outside = 0, unmatchedRoots = 0;
  t.levels.reserve(levels_.size());  // `strong` points into the last one pushed
  const std::vector<trace::TaskRecord>* strong = &t.tasks;
  const std::vector<std::uint64_t>* strongKeys = &main.keys;
  for (auto& kept : levels_) {
    trace::Level l;
    l.bound = kept.bound;
    l.stronger = matchTasks(kept.tree.tasks, kept.tree.keys, *strong, *strongKeys);
    l.improvements = improvements(std::move(kept.tree.solutions), maximise_, outside);
    l.tasks = std::move(kept.tree.tasks);
    std::uint64_t lnodes = 0, lcpu = 0, matched = 0;
    for (std::size_t i = 0; i < l.tasks.size(); ++i) {
      lnodes += l.tasks[i].nodes;
      lcpu += l.tasks[i].cpuNs;
      matched += l.stronger[i] != trace::kNoTask;
      if (l.tasks[i].parent == trace::kNoParent && l.stronger[i] == trace::kNoTask) ++unmatchedRoots;
    }
    levelRuns.push_back({{"bound", l.bound}, {"nodes", lnodes}, {"tasks", l.tasks.size()}, {"cpu_seconds", 1e-9 * static_cast<double>(lcpu)},
                         {"wall_seconds", kept.seconds}, {"matched_tasks", matched}, {"improvements", l.improvements.size()},
                         {"unfinished", kept.tree.unfinished}});
    t.levels.push_back(std::move(l));
    strong = &t.levels.back().tasks;
    strongKeys = &kept.tree.keys;
  }
  if (!t.levels.empty()) {
    notes.push_back("Incumbent replay: the tree is also recorded under " + std::to_string(t.levels.size()) +
                    " weaker incumbent(s) (\"levels\"), each frozen for its whole run, with where its tasks find "
                    "better solutions, so a replay can charge each task for the bound its rank holds. What it leaves "
                    "out: a bound weaker than the weakest level is replayed as that level, and a task that changes "
                    "tree part-way is assumed to be as far through the stronger version as through the weaker.");
    if (outside > 0)
      notes.push_back(std::to_string(outside) + " solution(s) of the level runs were found outside any task and are not replayed.");
    if (unmatchedRoots > 0)
      notes.push_back(std::to_string(unmatchedRoots) + " seed task(s) of a level matched no task of the stronger tree.");
  }

  // Exact: the tree does not depend on scheduling (enumeration under seq, depth_bounded or budget,
  // searched to the end).
  const bool treeSkeleton = o.skeleton == skeletons::Seq::name || o.skeleton == skeletons::DepthBounded::name ||
                            o.skeleton == skeletons::Budget::name;
  bool exact = treeSkeleton && (s.kind == "enumeration" || o.skeleton == skeletons::Seq::name);
  for (auto& n : s.notes) notes.push_back(std::move(n));
  if (s.kind == "decision")
    notes.push_back("Decision search: it stops when some worker finds a solution, so which tasks ran, and how far, "
                    "depends on scheduling.");
  if (o.skeleton == skeletons::StackStealing::name)
    notes.push_back("stack_stealing splits a task when some worker (or rank) is idle, so the tree depends on "
                    "scheduling.");
  if (o.skeleton == skeletons::Ordered::name)
    notes.push_back("ordered: the seed expands the tree above -d before any task runs; those " +
                    std::to_string(s.nodes >= nodes ? s.nodes - nodes : 0) +
                    " nodes belong to no task (nodes counts the tasks' nodes only).");
  if (s.stop == StopReason::Interrupted || s.stop == StopReason::Failed) {
    exact = false;
    notes.push_back(std::string("The search was ") + (s.stop == StopReason::Failed ? "stopped by a failure" : "interrupted") +
                    ": the trace holds only the part searched (" + std::to_string(unfinished) +
                    " task(s) spawned but never run have 0 nodes).");
  } else if (unfinished > 0) {
    notes.push_back(std::to_string(unfinished) + " task(s) were spawned but never run (the search stopped first): "
                    "their nodes and CPU time are 0.");
  }

  nlohmann::json& h = t.header;
  h["format"] = "jdtrace 1";
  h["app"] = ctx.name;
  h["command"] = commandLine(ctx.argv);
  h["skeleton"] = o.skeleton;
  if (o.skeleton == skeletons::Budget::name) h["budget"] = o.budget;
  if (o.skeleton == skeletons::DepthBounded::name || o.skeleton == skeletons::Ordered::name) h["spawn_depth"] = o.spawnDepth;
  if (o.skeleton == skeletons::StackStealing::name) h["chunked"] = o.chunked;
  if (o.skeleton == skeletons::Ordered::name) h["discrepancy"] = o.discrepancy;
  h["kind"] = s.kind;
  h["workers"] = s.workers;
  h["exact"] = exact;
  h["notes"] = joinNotes(notes);
  h["cpu_model"] = cpuModelName();
  h["ns_per_node"] = nodes > 0 ? static_cast<double>(cpuNs) / static_cast<double>(nodes) : 0.0;
  h["nodes"] = nodes;
  h["tasks"] = t.tasks.size();
  h["cpu_seconds"] = 1e-9 * static_cast<double>(cpuNs);
  h["wall_seconds"] = s.wallSeconds;
  h["answer"] = answer;
  h["status"] = toString(s.stop);
  h["search_nodes"] = s.nodes;
  h["tasks_run"] = s.tasksRun;
  h["printed_nodes"] = printed.nodes;
  for (const auto& [k, v] : s.extra.items()) h[k] = v;
  if (!t.levels.empty()) {
    h["sense"] = maximise_ ? "maximise" : "minimise";
    h["level_runs"] = levelRuns;
  }
  h["recorded_at"] = utcTimestamp();
  // A failure is reported after the answer (exit code 4), never thrown past it.
  OutputFile out("--trace", file_);
  try {
    if (out.fd() >= 0) trace::write(out.fd(), file_, t);
  } catch (const trace::TraceError&) {
    ctx.undelivered.push_back(out.abandon(errno));
    return;
  }
  if (const auto error = out.commit()) ctx.undelivered.push_back(*error);
}

}  // namespace jackdaw::app
