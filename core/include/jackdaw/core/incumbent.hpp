// The best solution so far, shared by every worker of a process.
//
// The objective lives in an atomic improved by compare-and-swap, so the bound test on the hot path
// is one relaxed load. The node itself sits behind a mutex: improvements are rare. A bound that
// arrives from another rank (offerBound) tightens pruning without a node. A frozen incumbent
// (freeze(), for recording a trace under a fixed bound) never moves: a solution better than its
// bound is only told to the listener.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>

#include "jackdaw/core/incumbent_view.hpp"

namespace jackdaw {

template <class Node, class Obj, class Better>
class Incumbent {
 public:
  Incumbent() = default;
  explicit Incumbent(std::optional<Obj> initial) {
    if (initial) {
      best_.store(*initial, std::memory_order_relaxed);
      has_.store(true, std::memory_order_release);
    }
  }

  bool hasBound() const noexcept { return has_.load(std::memory_order_acquire); }
  Obj bound() const noexcept { return best_.load(std::memory_order_relaxed); }

  // True when `o` is strictly better than the current bound (or there is none).
  bool wouldImprove(const Obj& o) const noexcept { return !hasBound() || Better{}(o, bound()); }

  // True when a subtree whose bound is `b` cannot improve on the incumbent (the bound test). The
  // common answer, "it can", takes one load: the value is compared before the flag is read (a
  // value read without the flag may be stale or the unset default, so a cut reads both again).
  bool cuts(const Obj& b) const noexcept {
    return !Better{}(b, bound()) && hasBound() && !Better{}(b, bound());
  }

  // What a generator may read of this incumbent (incumbent_view.hpp); `goal` may be null.
  IncumbentView<Obj> view(const Obj* goal) const noexcept { return {&best_, &has_, goal}; }

  // Before the search: keep the bound where it is for good (docs/simulation.md, "incumbent replay").
  void freeze() noexcept { frozen_ = true; }
  bool frozen() const noexcept { return frozen_; }

  // Tighten the bound; true if `o` was an improvement.
  bool offerBound(const Obj& o) noexcept {
    if (frozen_) return false;
    if (!has_.load(std::memory_order_acquire)) {
      std::lock_guard lock(firstMutex_);
      if (!has_.load(std::memory_order_relaxed)) {
        best_.store(o, std::memory_order_relaxed);
        has_.store(true, std::memory_order_release);
        return true;
      }
    }
    Obj cur = best_.load(std::memory_order_relaxed);
    while (Better{}(o, cur)) {
      if (best_.compare_exchange_weak(cur, o, std::memory_order_acq_rel)) return true;
    }
    return false;
  }

  // Called after every local improvement (offerNode), e.g. to send the bound to other ranks.
  // Set before the search starts; a bound from elsewhere (offerBound) does not call it.
  void setListener(std::function<void(const Obj&)> f) { listener_ = std::move(f); }

  // Record a solution node; true if it improved the bound.
  bool offerNode(const Node& n, const Obj& o) {
    if (frozen_) {
      if (listener_ && wouldImprove(o)) listener_(o);
      return false;
    }
    if (!offerBound(o)) return false;
    if (listener_) listener_(o);
    std::lock_guard lock(nodeMutex_);
    // Two improvers may race past offerBound; keep the better node, not the later one.
    if (!node_ || Better{}(o, nodeObj_)) {
      node_ = n;
      nodeObj_ = o;
    }
    return true;
  }

  std::optional<Node> node() const {
    std::lock_guard lock(nodeMutex_);
    return node_;
  }
  std::optional<Obj> nodeObjective() const {
    std::lock_guard lock(nodeMutex_);
    return node_ ? std::optional<Obj>(nodeObj_) : std::nullopt;
  }

 private:
  std::atomic<Obj> best_{};
  std::atomic<bool> has_{false};
  std::mutex firstMutex_;
  mutable std::mutex nodeMutex_;
  std::optional<Node> node_;
  Obj nodeObj_{};
  std::function<void(const Obj&)> listener_;
  bool frozen_ = false;
};

}  // namespace jackdaw
