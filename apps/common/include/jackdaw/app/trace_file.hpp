// --trace FILE: records the task tree of one search through the engine's SearchObserver hooks
// (taskSpawned, taskFinished with the task's id and thread CPU time) and writes it with
// jackdaw::trace::write (trace/): one record per task (parent, spawn point, nodes, CPU ns, depth,
// bytes on the wire) and a JSON header (app, command, skeleton and its grain options, kind,
// workers, exact, notes, cpu_model, ns_per_node, nodes, tasks, wall_seconds, answer, recorded_at).
// docs/simulation.md says what each field means and when a trace is exact.
//
//   trace.recorder = std::make_unique<TraceRecorder>(ctx);  // runMain: checks ranks and FILE now
//   observers.push_back(trace.recorder.get());               // runSearch: the recorded search
//   trace.recorder->searched({...});                         // after it
//   trace.recorder->write(ctx, answer.result, ...);          // finish(): FILE
//
// where `trace` is the TraceState in AppContext::features.
//
// Branch and bound adds levels (recordBoundRun): before the recorded run, one run per weaker
// incumbent with that bound frozen; keepLevel() sets each aside, and write() matches its tasks to
// the stronger tree's by their wire bytes' hash under the same parent.
//
// Records come from every worker at once: each worker appends to its own shard (a mutex each,
// uncontended), and write() puts them in id order.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/app/context.hpp"
#include "jackdaw/core/search_observer.hpp"
#include "jackdaw/core/stats.hpp"
#include "jackdaw/core/stop.hpp"
#include "jackdaw/trace/trace.hpp"

namespace jackdaw::app {

class TraceRecorder final : public SearchObserver {
 public:
  // What the recorded search was, told by runSearch after it ran.
  struct Search {
    std::string kind;                // enumeration | optimisation | decision
    bool parallel = true;            // false: seq, one task (sequentialTask)
    int workers = 1;
    double wallSeconds = 0;          // the recorded search's own time
    StopReason stop = StopReason::None;
    std::uint64_t nodes = 0;         // its node count (SearchStats)
    std::uint64_t tasksRun = 0;      // tasks its workers ran (--stats "workers"[].tasks summed)
    std::vector<std::string> notes;  // what the caller knows that limits the trace
    nlohmann::json extra = nlohmann::json::object();  // more header fields (e.g. initial_bound)
  };

  // Throws InputError when the trace cannot be recorded: more than one rank, or FILE cannot be
  // written (checked now, before any search). --resume and --checkpoint-every are refused by
  // validate().
  explicit TraceRecorder(const AppContext& ctx);

  bool wantsTaskTree() const override { return true; }
  void taskSpawned(const TaskSpawn& s) override;
  void taskFinished(const TaskSpan& s) override;
  void solutionFound(const SolutionFound& f) override;

  // Forget every record (before the search to record).
  void clear();
  // A sequential search: one task, the root, with its nodes, CPU time and size on the wire.
  void sequentialTask(std::uint64_t nodes, std::uint64_t cpuNs, std::uint32_t bytes);
  void searched(Search s);
  // Branch and bound: set aside what was recorded since clear() as the tree under `bound` (frozen),
  // weakest last. `maximise`: larger objectives are better. `seconds`: that run's wall time.
  void keepLevel(double bound, bool maximise, double seconds);
  std::size_t levels() const { return levels_.size(); }

  // Writes FILE (rank 0). `answer` is the app's result (--stats "result"); printed/seconds/stop are
  // those of the run the app printed, used only if no search was recorded through runSearch (an
  // app that ran its sequential search itself: one task, its CPU time the main thread's).
  // Throws trace::TraceError if the file cannot be written.
  void write(const AppContext& ctx, const nlohmann::json& answer, const SearchStats& printed, double seconds,
             StopReason stop);
  bool written() const { return written_; }

 private:
  struct Finished {
    std::uint64_t id, nodes, cpuNs;
  };
  // One recorded run's tree in id order, with each task's key and what it found.
  struct Tree {
    std::vector<trace::TaskRecord> tasks;
    std::vector<std::uint64_t> keys;
    std::vector<SolutionFound> solutions;
    std::uint64_t unfinished = 0;  // spawned, never run
  };
  Tree assemble();
  struct KeptLevel {
    double bound;
    double seconds;
    Tree tree;
  };
  // Deques, not vectors: a vector's doubling copies every record so far inside the task that
  // happened to spawn the next one, and that task's CPU time with it (77 ms at 8.4 M records).
  struct alignas(64) Shard {
    std::mutex m;
    std::deque<TaskSpawn> spawns;
    std::deque<Finished> finished;
    std::deque<SolutionFound> solutions;
  };
  Shard& shard(int worker) { return shards_[static_cast<std::size_t>(worker + 1) % shards_.size()]; }

  std::string file_;
  std::uint64_t mainCpuAtStart_ = 0;
  std::array<Shard, 16> shards_;
  std::optional<Search> search_;
  std::vector<KeptLevel> levels_;
  bool maximise_ = true;
  bool written_ = false;
};

// What --trace keeps across a run, in AppContext::features (feature_states.hpp): the recorder,
// made by runMain, fed by the TraceRun feature (run.hpp), written by finish() or runMain.
struct TraceState {
  std::unique_ptr<TraceRecorder> recorder;  // null without --trace
};

// The objectives a search improved its incumbent through (for --trace's levels): attach it to the
// branch-and-bound run that finds the optimum.
class ObjectiveHistory final : public SearchObserver {
 public:
  void solutionFound(const SolutionFound& f) override {
    std::lock_guard lock(m_);
    values_.push_back(f.objective);
  }
  // Distinct values worse than `optimum`, best first, at most n.
  std::vector<double> below(double optimum, bool maximise, std::size_t n) const;

 private:
  mutable std::mutex m_;
  std::vector<double> values_;
};

// The first "model name" in /proc/cpuinfo ("unknown" if there is none).
std::string cpuModelName();

}  // namespace jackdaw::app
