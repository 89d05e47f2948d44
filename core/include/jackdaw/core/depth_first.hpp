// The depth-first engine every skeleton runs: an explicit stack of (node, generator) frames.
//
// Skeletons steer it through a Hooks object (all members optional):
//   bool spawnsChildrenOf(int depth)          children of a node at this depth become tasks
//   void spawn(Node&& child, int depth)       receive such a child (already bound-tested)
//   void afterNode(DepthFirst&)               after each visited node (stack stealing answers here)
//   void afterBacktrack(DepthFirst&)          after each backtrack (budget counts these)
// and may split work off the stack with splitShallowest().
#pragma once

#include <cstddef>
#include <utility>

#include "jackdaw/core/node_rules.hpp"
#include "jackdaw/core/stable_stack.hpp"

namespace jackdaw {

struct NoHooks {};

template <SearchModel M, SearchKind K, class Hooks = NoHooks>
class DepthFirst {
 public:
  using T = SearchTypes<M, K>;
  using Node = typename T::Node;
  using Generator = typename T::Generator;
  static constexpr bool pruneLevel = ModelTraits<M>::pruneLevel;

  DepthFirst(NodeRules<M, K>& rules, Hooks& hooks) : rules_(rules), hooks_(hooks) {}

  // Search the subtree rooted at `root` (bound test and visit of the root included).
  void run(Node root, int depth) {
    if (rules_.stop().requested() || rules_.pruned(root)) return;
    rules_.visit(root, depth);
    if (rules_.stop().requested() || !rules_.expandable(depth)) return;
    descend(std::move(root), depth);
    loop();
  }

  // Hand away up to `maxTasks` unexplored children of the shallowest frame that has any
  // (bound-tested first); returns how many went to sink(Node&&, int depth).
  template <class Sink>
  std::size_t splitShallowest(std::size_t maxTasks, Sink&& sink) {
    std::size_t given = 0;
    for (std::size_t i = 0; i < stack_.size() && given == 0; ++i) {
      Frame& f = stack_[i];
      while (f.remaining > 0 && given < maxTasks) {
        --f.remaining;
        Node c = f.gen.next();
        if (rules_.pruned(c)) {
          if constexpr (pruneLevel) f.remaining = 0;
          continue;
        }
        sink(std::move(c), f.depth + 1);
        ++given;
      }
    }
    return given;
  }

  // Unexplored children left on the stack (an estimate of the work a split can give).
  bool hasSplittableWork() const {
    for (std::size_t i = 0; i < stack_.size(); ++i)
      if (stack_[i].remaining > 0) return true;
    return false;
  }
  std::size_t stackDepth() const { return stack_.size(); }

  // Visit every frame bottom-up (checkpointing reads the open subtrees this way).
  template <class F>
  void forEachFrame(F&& f) {
    for (std::size_t i = 0; i < stack_.size(); ++i) f(stack_[i].node, stack_[i].depth, stack_[i].remaining);
  }

 private:
  struct Frame {
    Frame(const typename T::Space& s, Node&& n, int d)
        : node(std::move(n)), gen(s, node), remaining(static_cast<std::size_t>(gen.numChildren)), depth(d) {}
    Node node;
    Generator gen;
    std::size_t remaining;
    int depth;
  };

  // Place an expandable node: as a frame, as spawned tasks, or counted in bulk at the depth limit.
  void descend(Node&& n, int depth) {
    if constexpr (requires { hooks_.spawnsChildrenOf(depth); }) {
      if (hooks_.spawnsChildrenOf(depth)) {
        Generator gen(rules_.space(), n);
        for (std::size_t k = static_cast<std::size_t>(gen.numChildren); k > 0; --k) {
          Node c = gen.next();
          if (rules_.pruned(c)) {
            if constexpr (pruneLevel) break;
            continue;
          }
          hooks_.spawn(std::move(c), depth + 1);
        }
        return;
      }
    }
    if constexpr (CountsChildrenInBulk<typename T::Enum, Node>) {
      if (rules_.countsLeavesInBulk(depth)) {
        Generator gen(rules_.space(), n);
        const auto k = static_cast<std::size_t>(gen.numChildren);
        rules_.acc.accumulateChildren(n, k);
        rules_.stats.nodes += k;
        if (k > 0 && static_cast<std::uint64_t>(depth + 1) > rules_.stats.maxDepth) rules_.stats.maxDepth = depth + 1;
        return;
      }
    }
    stack_.emplace(rules_.space(), std::move(n), depth);
  }

  void loop() {
    StopFlag& stop = rules_.stop();
    while (!stack_.empty()) {
      Frame& f = stack_.top();
      if (f.remaining == 0) {
        stack_.pop();
        ++rules_.stats.backtracks;
        if constexpr (requires { hooks_.afterBacktrack(*this); }) hooks_.afterBacktrack(*this);
        continue;
      }
      --f.remaining;
      Node c = f.gen.next();
      const int d = f.depth + 1;
      if (rules_.pruned(c)) {
        if constexpr (pruneLevel) f.remaining = 0;
        continue;
      }
      rules_.visit(c, d);
      if (stop.requested()) break;
      if constexpr (requires { hooks_.afterNode(*this); }) hooks_.afterNode(*this);
      if (rules_.expandable(d)) descend(std::move(c), d);
    }
    stack_.clear();
  }

  NodeRules<M, K>& rules_;
  Hooks& hooks_;
  StableStack<Frame> stack_;
};

}  // namespace jackdaw
