// The node counters of a running search, readable from another thread (a progress logger).
// A skeleton registers each worker's SearchStats for the time it runs (Registration, RAII); the
// reader sums their nodes with relaxed loads, so the number is a live, slightly stale total.
//
//   jackdaw::LiveNodes live;                 // outlives the search
//   opts.live = &live;                       // ParallelOptions, or seq::search(..., &live)
//   ... on another thread: live.nodes()      // monotone while the search runs
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

#include "jackdaw/core/stats.hpp"

namespace jackdaw {

class LiveNodes {
 public:
  // Registers counters while in scope; the nodes they counted stay in the total afterwards.
  class Registration {
   public:
    Registration(LiveNodes* live, std::vector<const SearchStats*> stats) : live_(live), stats_(std::move(stats)) {
      if (live_) live_->add(stats_);
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

 private:
  void add(const std::vector<const SearchStats*>& s) {
    std::lock_guard lock(m_);
    running_.insert(running_.end(), s.begin(), s.end());
  }
  void remove(const std::vector<const SearchStats*>& s) {
    std::lock_guard lock(m_);
    for (const SearchStats* x : s) {
      finished_ += x->liveNodes();
      running_.erase(std::remove(running_.begin(), running_.end(), x), running_.end());
    }
  }

  mutable std::mutex m_;
  std::vector<const SearchStats*> running_;
  std::uint64_t finished_ = 0;
};

}  // namespace jackdaw
