// The incumbent as a model's generator sees it: the engine hands one to every generator whose
// constructor takes it, `Generator(const Space&, const Node& parent, IncumbentView<Obj> best)`.
//
// It reads the search's own incumbent (one per search and process, shared by that process's
// workers), so two searches in one process never see each other's, and a generator may keep
// the view for as long as it lives. What it holds:
//   best()  optimisation: the bound this process prunes against: params.initialBound, then every
//           improvement a worker finds (the finder's generator for that node sees it already), a
//           bound from another rank, or on --resume the saved best. Under a frozen bound (the
//           runs that record --trace levels) it stays at params.initialBound. Never in a decision
//           (it stops at its first solution) or an enumeration.
//   goal()  decision: params.expectedObjective; null otherwise.
// Whatever it says, every bound the model gives must stay valid: it is a hint to cut or order
// children sooner, never a reason to give a wrong bound. Keep what is read in the generator (or
// in a child's fields); a Node must not keep the view (it may be sent to another rank).
#pragma once

#include <atomic>

namespace jackdaw {

template <class Obj>
class IncumbentView {
 public:
  // Knows nothing: an enumeration, or a generator built outside a search (a test).
  IncumbentView() = default;
  // `best` counts only while `has` is true; `goal` may be null.
  IncumbentView(const std::atomic<Obj>* best, const std::atomic<bool>* has, const Obj* goal) noexcept
      : best_(best), has_(has), goal_(goal) {}

  bool hasBest() const noexcept { return has_ && has_->load(std::memory_order_acquire); }
  Obj best() const noexcept { return best_->load(std::memory_order_relaxed); }  // when hasBest()
  Obj bestOr(Obj none) const noexcept { return hasBest() ? best() : none; }
  const Obj* goal() const noexcept { return goal_; }

 private:
  const std::atomic<Obj>* best_ = nullptr;
  const std::atomic<bool>* has_ = nullptr;
  const Obj* goal_ = nullptr;
};

}  // namespace jackdaw
