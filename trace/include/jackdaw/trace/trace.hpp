// A search's task tree as a file: what `--trace FILE` records and `jackdaw-sim` replays.
//
// One record per task, indexed by its id (0, 1, 2, ... in creation order): its parent, how far
// into the parent's run it was spawned, the nodes it visited and the CPU time that took, its depth
// and its size on the wire. With the header (the run's options and calibration) that is enough to
// replay the search on any number of simulated workers: a task runs for its CPU time and releases
// each child at its spawn point. For enumeration under depth_bounded and budget the tree does not
// depend on scheduling, so a trace recorded on one machine is the tree every run walks.
//
//   jackdaw::trace::Trace t = jackdaw::trace::read("ns.jdtrace");
//   for (std::size_t id = 0; id < t.tasks.size(); ++id) use(t.tasks[id].parent, t.tasks[id].nodes);
//
// Branch and bound adds levels (an incumbent replay): the tree again under each of a few weaker
// incumbents, frozen for the whole run, with where its tasks find better solutions and which task
// of the next stronger tree each one is. A simulator then plays a task under the bound its rank
// knows when the task starts.
//
// File: gzip (zlib) of "JDTRACE1", the header as JSON text (u32 length first), the task count and
// the records as LEB128 varints; then, if the header lists "levels", each level's tasks the same
// way, its map to the stronger tree and its improvements. See docs/simulation.md.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jackdaw::trace {

inline constexpr std::uint64_t kNoParent = std::numeric_limits<std::uint64_t>::max();

struct TaskRecord {
  std::uint64_t parent = kNoParent;  // a seed task (pushed before any task ran) has none
  std::uint64_t afterNodes = 0;      // nodes the parent had visited in this task when it spawned this one
  std::uint64_t nodes = 0;           // nodes this task visited
  std::uint64_t cpuNs = 0;           // its worker's CPU time for them (thread CPU clock)
  std::uint32_t depth = 0;           // depth of its root node
  std::uint32_t bytes = 0;           // its size serialised for a steal
};

inline constexpr std::uint64_t kNoTask = std::numeric_limits<std::uint64_t>::max();

// A solution better than the level's bound, found by a task of that level.
struct Improvement {
  std::uint64_t task = 0;
  std::uint64_t afterNodes = 0;  // nodes the task had visited when it found it
  double objective = 0;
};

// The tree under a weaker incumbent (branch and bound only).
struct Level {
  double bound = 0;                       // the incumbent, frozen for the whole recorded run
  std::vector<TaskRecord> tasks;          // that run's tasks, numbered as it created them
  std::vector<std::uint64_t> stronger;    // per task: the same task in the next stronger tree
                                          // (the previous level, or Trace::tasks); kNoTask: pruned there
  std::vector<Improvement> improvements;  // by task, then afterNodes; each better than the last in its task
};

struct Trace {
  // What was run and how it was measured: "app", "command", "skeleton", "kind", "workers",
  // "exact", "notes", "cpu_model", "ns_per_node", ... (docs/simulation.md lists them).
  nlohmann::json header = nlohmann::json::object();
  std::vector<TaskRecord> tasks;  // tasks[id]
  // Branch and bound: the tree under weaker incumbents, strongest first (header "levels" lists
  // their bounds; "sense" says whether larger or smaller is better). Empty otherwise.
  std::vector<Level> levels;

  std::uint64_t totalNodes() const;
  std::uint64_t totalCpuNs() const;
  // Children of each task in spawn order (by afterNodes, then id).
  std::vector<std::vector<std::uint64_t>> children() const;
  // The makespan on unlimited workers with free steals: a task starts when its parent reaches its
  // spawn point (CPU time prorated by nodes, as jackdaw-sim replays it) and runs for its CPU time.
  // totalCpuNs() / criticalPathNs() is the most workers the tree can keep busy on average.
  std::uint64_t criticalPathNs() const;
};

// Children of each task of a tree in spawn order (by afterNodes, then id).
std::vector<std::vector<std::uint64_t>> childrenOf(const std::vector<TaskRecord>& tasks);

// A file that cannot be read or is not a well-formed trace: the message says which and why.
struct TraceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws TraceError.
void write(const std::string& path, const Trace& t);
// The same into an open file (not closed here; `name` for messages): the caller decides where the
// bytes land (the apps write a temporary and rename it, apps/common safe_file.hpp).
void write(int fd, const std::string& name, const Trace& t);
// Throws TraceError; checks every record (parents before children, spawn points inside the
// parent's run; nodes and CPU time a replay can count; a level's map and improvements name tasks
// that exist) and the header's totals and types. A trace whose records would take more than
// `memoryLimit` bytes is refused before they are read.
Trace read(const std::string& path, std::uint64_t memoryLimit = std::numeric_limits<std::uint64_t>::max());

}  // namespace jackdaw::trace
