// The node counters of a running search, readable from another thread (a progress logger).
// A skeleton registers each worker's SearchStats for the time it runs (Registration, RAII); the
// reader sums their nodes with relaxed loads, so the number is a live, slightly stale total.
//
//   jackdaw::LiveNodes live;                 // outlives the search
//   opts.live = &live;                       // ParallelOptions, or seq::search(..., &live)
//   ... on another thread: live.nodes()      // monotone while the search runs
//                          live.incumbent()  // optimisation and decision: the best so far
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "jackdaw/core/stats.hpp"

namespace jackdaw {

// The incumbent of a running search as a progress line shows it (arithmetic objectives).
struct LiveIncumbent {
  bool decision = false;           // a decision search (else optimisation)
  std::optional<double> best;      // the process's bound: its own solutions and, on several ranks, the others'
  std::optional<double> foundHere; // the best solution this process's workers found (or a resumed run kept)
};

class LiveNodes {
 public:
  using IncumbentReader = std::function<LiveIncumbent()>;

  // Registers counters (and, for optimisation and decision, how to read the incumbent) while in
  // scope; the nodes they counted stay in the total afterwards.
  class Registration {
   public:
    Registration(LiveNodes* live, std::vector<const SearchStats*> stats, IncumbentReader incumbent = {})
        : live_(live), stats_(std::move(stats)) {
      if (live_) live_->add(stats_, std::move(incumbent));
    }
    ~Registration() {
      if (live_) live_->remove(stats_);
    }
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

   private:
    LiveNodes* live_;
    std::vector<const SearchStats*> stats_;
  };

  std::uint64_t nodes() const {
    std::lock_guard lock(m_);
    std::uint64_t n = finished_;
    for (const SearchStats* s : running_) n += s->liveNodes();
    return n;
  }

  // The running search's incumbent; none in an enumeration, or while no search runs.
  std::optional<LiveIncumbent> incumbent() const {
    std::lock_guard lock(m_);
    if (!incumbent_) return std::nullopt;
    return incumbent_();
  }

  // A reader of `inc` (core/incumbent.hpp) for a search of kind `decision` or optimisation.
  template <class Inc>
  static IncumbentReader reader(const Inc& inc, bool decision) {
    return [&inc, decision] {
      LiveIncumbent r;
      r.decision = decision;
      if constexpr (requires { static_cast<double>(inc.bound()); }) {
        if (inc.hasBound()) r.best = static_cast<double>(inc.bound());
        if (const auto o = inc.nodeObjective()) r.foundHere = static_cast<double>(*o);
      }
      return r;
    };
  }

 private:
  void add(const std::vector<const SearchStats*>& s, IncumbentReader incumbent) {
    std::lock_guard lock(m_);
    running_.insert(running_.end(), s.begin(), s.end());
    if (incumbent) incumbent_ = std::move(incumbent);
  }
  void remove(const std::vector<const SearchStats*>& s) {
    std::lock_guard lock(m_);
    incumbent_ = nullptr;
    for (const SearchStats* x : s) {
      finished_ += x->liveNodes();
      running_.erase(std::remove(running_.begin(), running_.end(), x), running_.end());
    }
  }

  mutable std::mutex m_;
  std::vector<const SearchStats*> running_;
  std::uint64_t finished_ = 0;
  IncumbentReader incumbent_;
};

}  // namespace jackdaw
