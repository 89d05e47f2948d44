#include "jackdaw/app/trace_file.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "jackdaw/app/report.hpp"
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
  if (ctx.rank == 0 && !std::ofstream(file_, std::ios::app)) throw InputError("--trace " + file_ + ": cannot write this file");
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

void TraceRecorder::clear() {
  for (auto& sh : shards_) {
    std::lock_guard lock(sh.m);
    sh.spawns.clear();
    sh.finished.clear();
  }
  search_.reset();
}

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

  // The records in id order: a spawn for every id 0..n-1, a finish for every task that ran.
  std::vector<trace::TaskRecord> tasks;
  std::uint64_t unfinished = 0;
  {
    std::vector<TaskSpawn> spawns;
    std::vector<Finished> finished;
    for (auto& sh : shards_) {
      std::lock_guard lock(sh.m);
      spawns.insert(spawns.end(), sh.spawns.begin(), sh.spawns.end());
      finished.insert(finished.end(), sh.finished.begin(), sh.finished.end());
    }
    std::uint64_t n = 0;
    for (const auto& e : spawns) n = std::max(n, e.id + 1);
    tasks.resize(static_cast<std::size_t>(n));
    std::vector<char> seen(tasks.size(), 0), ran(tasks.size(), 0);
    for (const auto& e : spawns) {
      auto& r = tasks[static_cast<std::size_t>(e.id)];
      r.parent = e.parent == kNoParentTask ? trace::kNoParent : e.parent;
      r.afterNodes = e.afterNodes;
      r.depth = static_cast<std::uint32_t>(std::max(0, e.depth));
      r.bytes = e.bytes;
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
      if (!ran[i]) ++unfinished;
    }
  }

  trace::Trace t;
  t.tasks = std::move(tasks);
  const std::uint64_t nodes = t.totalNodes(), cpuNs = t.totalCpuNs();

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
  h["recorded_at"] = utcTimestamp();
  trace::write(file_, t);
}

}  // namespace jackdaw::app
