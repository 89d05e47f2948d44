// The rules every skeleton applies to a node: the bound test, the visit (count, accumulate,
// objective), the depth limit. One object per worker; only the incumbent and the stop flag are
// shared.
#pragma once

#include <limits>
#include <utility>
#include <vector>

#include "jackdaw/core/search_types.hpp"
#include "jackdaw/core/stats.hpp"
#include "jackdaw/core/stop.hpp"

namespace jackdaw {

template <SearchModel M, SearchKind K>
class NodeRules {
 public:
  using T = SearchTypes<M, K>;
  using Space = typename T::Space;
  using Node = typename T::Node;
  using Obj = typename T::Obj;
  using Better = typename T::Better;

  NodeRules(const Space& space, const typename T::Params& params, typename T::IncumbentT* incumbent,
            StopFlag& stop)
      : space_(space),
        params_(params),
        incumbent_(incumbent),
        stop_(stop),
        maxDepth_(params.maxDepth < 0 ? std::numeric_limits<int>::max() : params.maxDepth) {
    if constexpr (isOptimisation<K>) view_ = incumbent->view(nullptr);
    else if constexpr (isDecision<K>) view_ = incumbent->view(params.expectedObjective ? &*params.expectedObjective : nullptr);
  }

  const Space& space() const { return space_; }
  const typename T::Params& params() const { return params_; }
  StopFlag& stop() { return stop_; }
  typename T::IncumbentT* incumbent() { return incumbent_; }
  // What a generator that asks for it is given (incumbent_view.hpp).
  IncumbentView<Obj> view() const { return view_; }

  // The bound test and the visit (without the pulse), reading what they need through references
  // held apart from the rules. An engine that recurses (recursive_search.hpp) takes them into its
  // own frame once per node it expands: after a call in the model's code (an allocation, say) one
  // load from the frame finds each again, where reading through the engine's reference to the
  // rules takes two in a row (bench/results/generality.md). pruned() and visit() below are these.
  struct Local {
    NodeRules& rules;
    const Space& space;
    typename T::IncumbentT* incumbent;
    SearchStats& stats;

    // True if the node's subtree cannot contain anything better (counted as a prune).
    [[gnu::always_inline]] bool pruned(const Node& n) const {
      if constexpr (usesIncumbent<K> && ModelTraits<M>::hasBound) {
        const auto b = M::bound(space, n);
        bool cut;
        if constexpr (isDecision<K>) cut = Better{}(*rules.params_.expectedObjective, b);
        else cut = incumbent->cuts(b);
        if (cut) {
          ++stats.prunes;
          return true;
        }
      }
      (void)n;
      return false;
    }

    // Count the node, fold it, or test its objective.
    [[gnu::always_inline]] void visit(const Node& n, int depth) const {
      stats.addNodes(1);
      if (static_cast<std::uint64_t>(depth) > stats.maxDepth) stats.maxDepth = depth;
      if constexpr (isEnumeration<K>) {
        if constexpr (AccumulatesWithSpace<typename T::Enum, Space, Node>) rules.acc.accumulate(space, n);
        else rules.acc.accumulate(n);
      } else if constexpr (isOptimisation<K>) {
        const Obj o = n.getObj();
        // The incumbent moves before this node's generator is built, so that generator sees it.
        if (incumbent->wouldImprove(o)) [[unlikely]] rules.improve(n, o);
      } else {
        const Obj o = n.getObj();
        if (!Better{}(*rules.params_.expectedObjective, o)) [[unlikely]] rules.reach(n, o);
      }
    }
  };
  Local local() { return {*this, space_, incumbent_, stats}; }

  // The bound test (Local::pruned).
  [[gnu::always_inline]] bool pruned(const Node& n) { return local().pruned(n); }

  // The pulse: every `every` visits on this worker, call fn(ctx, depth) (depth: the visited node's);
  // fn == nullptr or every == 0: never. fn may set the pulse again (another period, from the next
  // visit on). A parallel skeleton sets it (SearchObserver::pulse, and its split rules:
  // depth_pool_search.hpp), from the worker itself or while no task runs. A plain function
  // pointer, so a search without a pulse pays one predictable branch per node, and what a pulse
  // does stays out of the engine's hot loop. Nodes counted in bulk (countsLeavesInBulk,
  // countsTwoLevelsInBulk) are not visited one by one and do not advance it.
  using PulseFn = void (*)(void* ctx, int depth);
  void setPulse(PulseFn fn, void* ctx, unsigned every) {
    pulseFn_ = every > 0 ? fn : nullptr;
    pulseCtx_ = ctx;
    pulseEvery_ = pulseLeft_ = every;
  }
  unsigned pulseLeft() const { return pulseFn_ ? pulseLeft_ : 0; }  // visits until the next call

  bool pulsing() const { return pulseFn_ != nullptr; }

  // Visit a node that survived the bound: the pulse, then Local::visit (an engine whose rules
  // never pulse, seq's recursion, calls that alone).
  [[gnu::always_inline]] void visit(const Node& n, int depth) {
    if (pulseFn_ && --pulseLeft_ == 0) {
      pulseLeft_ = pulseEvery_;
      pulseFn_(pulseCtx_, depth);
    }
    local().visit(n, depth);
  }

  bool expandable(int depth) const { return depth < maxDepth_; }
  int depthLimit() const { return maxDepth_; }  // INT_MAX without one

  // Enumeration whose children at the depth limit can be counted without being built.
  bool countsLeavesInBulk(int depth) const {
    if constexpr (isEnumeration<K> && CountsChildrenInBulk<typename T::Enum, Node>)
      return depth + 1 == maxDepth_;
    else
      return false;
  }
  // The model can count the two levels above the depth limit without building them: a node
  // one more level up has its children and grandchildren counted at once.
  static constexpr bool countsTwoLevels = isEnumeration<K> &&
                                          CountsGrandchildrenInBulk<typename T::Enum, Node> &&
                                          CountsChildrenOfNext<typename T::Generator> &&
                                          CountsChildren<typename T::Generator>;
  bool countsTwoLevelsInBulk(int depth) const {
    if constexpr (countsTwoLevels) return depth + 2 == maxDepth_;
    else return false;
  }

  typename T::Enum acc{};
  SearchStats stats;
  // A stop left some of this worker's work unexplored (an interruption cut the search short;
  // a stop that came after the last node did not).
  bool truncated = false;
  // When set, the work a stop cuts short is handed here as (node, depth) pairs, none of them
  // visited yet, instead of being dropped: a checkpoint keeps it and a resumed search runs it.
  // Only the stop path touches it.
  std::vector<std::pair<Node, int>>* unexplored = nullptr;

 private:
  const Space& space_;
  const typename T::Params& params_;
  // The rare outcomes of a visit, out of line so that visit() stays small enough to inline into
  // every skeleton's loop.
  [[gnu::noinline, gnu::cold]] void improve(const Node& n, const Obj& o) { incumbent_->offerNode(n, o); }
  [[gnu::noinline, gnu::cold]] void reach(const Node& n, const Obj& o) {
    incumbent_->offerNode(n, o);
    stop_.request(StopReason::Found);
  }

  typename T::IncumbentT* incumbent_;
  StopFlag& stop_;
  IncumbentView<Obj> view_;
  int maxDepth_;  // params.maxDepth, or "no limit" as INT_MAX: one compare per node
  PulseFn pulseFn_ = nullptr;  // see setPulse
  void* pulseCtx_ = nullptr;
  unsigned pulseEvery_ = 0;
  unsigned pulseLeft_ = 0;  // visits until the next pulse on this worker
};

}  // namespace jackdaw
