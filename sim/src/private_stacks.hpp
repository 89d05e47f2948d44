// Hunger splitting (jackdaw-sim --split hunger; docs/simulation.md, "Hunger splitting"): the
// replay of the engine's splitting rule instead of a fixed task tree.
//
// A task that reaches a recorded spawn point puts the child on its worker's private stack, which
// no thief sees. When the rank is hungry (a worker of it idle, or a remote thief found its pool
// empty) and its pool is empty, a busy worker moves its oldest entries (the shallowest: the first
// its tasks spawned; how many: --split-chunk) to the rank's pool at its next hunger check, and pays
// the split's cost per entry. A worker whose task ends goes on with the newest entry of its own
// stack before it looks at the pool, as a depth-first search backtracks into its own unexplored
// siblings.
//
// This class is the data and the choices; replay.cpp calls it from its workers, its comm actor
// and one splitter actor per rank (the time a hunger check takes to come round).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace jackdaw::sim {

class PrivateStacks {
 public:
  explicit PrivateStacks(int workers)
      : stacks_(static_cast<std::size_t>(workers)), nsPerNode_(static_cast<std::size_t>(workers), 0.0),
        debtNs_(static_cast<std::size_t>(workers), 0.0), inTask_(static_cast<std::size_t>(workers), false) {}

  // A child reached its spawn point in worker w's task.
  void push(int w, std::uint64_t task, std::uint32_t depth) {
    stacks_[idx(w)].push_back({task, depth});
    ++size_;
  }
  // The worker's task ended: its newest entry, if any (depth first).
  std::optional<std::uint64_t> popNewest(int w) {
    auto& s = stacks_[idx(w)];
    if (s.empty()) return std::nullopt;
    const std::uint64_t t = s.back().task;
    s.pop_back();
    --size_;
    return t;
  }
  // The worker that splits when the rank is hungry: of those inside a task (only a running task
  // checks for hunger) holding anything, the one whose oldest entry is shallowest (the biggest
  // piece of work on offer; the lowest index on a tie); -1 if none. In the engine whichever busy
  // worker checks first splits; this choice is stated, not measured.
  int donor() const {
    int best = -1;
    for (std::size_t w = 0; w < stacks_.size(); ++w)
      if (inTask_[w] && !stacks_[w].empty() &&
          (best < 0 || stacks_[w].front().depth < stacks_[idx(best)].front().depth))
        best = static_cast<int>(w);
    return best;
  }
  // Worker w splits: up to `most` of its oldest entries leave its stack for the rank's pool, from
  // the bottom of the stack up, or with `level` every entry at the oldest one's depth
  // (stack_stealing --chunked: the whole shallowest level). Each entry costs `costNs`, added to
  // what w's task still has to run.
  std::vector<std::uint64_t> split(int w, double costNs, std::size_t most, bool level = false) {
    auto& s = stacks_[idx(w)];
    std::vector<std::uint64_t> out;
    const std::uint32_t depth = s.front().depth;
    do {
      out.push_back(s.front().task);
      s.pop_front();
    } while (!s.empty() && (level ? s.front().depth == depth : out.size() < most));
    size_ -= out.size();
    debtNs_[idx(w)] += costNs * static_cast<double>(out.size());
    ++splits_;
    splitTasks_ += out.size();
    return out;
  }
  // The CPU time (ns) worker w owes for splits since it last ran (then cleared).
  double takeDebt(int w) {
    const double d = debtNs_[idx(w)];
    debtNs_[idx(w)] = 0;
    return d;
  }
  // The ns per node of the task worker w is running (how long its next hunger check takes).
  void setRate(int w, double nsPerNode) { nsPerNode_[idx(w)] = nsPerNode; }
  // Worker w entered (true) or left (false) a task: between two tasks it splits nothing (it is
  // about to take its own newest entry).
  void setInTask(int w, bool in) { inTask_[idx(w)] = in; }
  double rate(int w) const { return nsPerNode_[idx(w)]; }

  std::size_t size() const { return size_; }
  std::uint64_t splits() const { return splits_; }
  std::uint64_t splitTasks() const { return splitTasks_; }

 private:
  struct Entry {
    std::uint64_t task;  // packed as the pools hold it
    std::uint32_t depth;
  };
  static std::size_t idx(int w) { return static_cast<std::size_t>(w); }
  std::vector<std::deque<Entry>> stacks_;
  std::vector<double> nsPerNode_, debtNs_;
  std::vector<bool> inTask_;
  std::size_t size_ = 0;
  std::uint64_t splits_ = 0, splitTasks_ = 0;
};

}  // namespace jackdaw::sim
