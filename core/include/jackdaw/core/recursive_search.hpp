// The seq skeleton's depth-first search written as recursion: a node and its generator live on
// the call stack, as in a hand-written search, which costs less per node than DepthFirst's
// explicit stack of frames (bench/results/generality.md). It searches the same tree and reports
// the same as DepthFirst<M, K> without hooks: nodes, prunes, level prunes, backtracks, the depth
// reached, the counts in bulk at the depth limit, the checked build's generator contract, and on a
// stop whether work was cut short (rules.truncated). It takes no hooks and keeps no unexplored
// work: the parallel skeletons, which need both, run DepthFirst.
//
// A subtree that starts deeper than about 256 KiB of frames below the root continues on
// DepthFirst's explicit stack, so a deep tree cannot exhaust the thread's stack.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "jackdaw/core/depth_first.hpp"
#include "jackdaw/core/dfs_steps.hpp"
#include "jackdaw/core/node_rules.hpp"

namespace jackdaw {

template <SearchModel M, SearchKind K>
class RecursiveSearch {
 public:
  using T = SearchTypes<M, K>;
  using Node = typename T::Node;
  using Generator = typename T::Generator;

  // deep: the explicit stack for subtrees below the recursion's depth (empty before and after).
  // The rules must not pulse (only the parallel skeletons set a pulse): the recursion leaves the
  // pulse's branch out of every visit.
  RecursiveSearch(NodeRules<M, K>& rules, DfsStack<M, K>& deep) : rules_(rules), deep_(deep) {
    if (rules.pulsing()) throw std::logic_error("RecursiveSearch: the rules pulse; run DepthFirst");
  }
  RecursiveSearch(const RecursiveSearch&) = delete;
  RecursiveSearch& operator=(const RecursiveSearch&) = delete;

  // Search the subtree rooted at `root` (bound test and visit of the root included).
  void run(Node root, int depth) {
    StopFlag& stop = rules_.stop();
    if (stop.requested()) {
      rules_.truncated = true;  // the whole subtree is left unexplored
      return;
    }
    if (rules_.pruned(root)) return;
    rules_.local().visit(root, depth);
    if (!rules_.expandable(depth)) return;
    if (stop.requested()) {
      if (Steps::hasChildren(rules_, root, depth)) rules_.truncated = true;
      return;
    }
    deepFrom_ = depth + kLevels;
    limit_ = std::min(deepFrom_, rules_.depthLimit());
    (void)expand(root, depth);
    rules_.stats.backtracks += std::exchange(backtracks_, 0);
  }

 private:
  using Steps = DfsSteps<M, K>;
  using Check = typename Steps::Check;
  // Levels searched by recursion below the root: about 256 KiB of frames, counting a node, its
  // generator and 256 bytes of call overhead (generous for optimised code; an unoptimised,
  // sanitized build uses more), so any thread's stack holds them. A model whose generator is
  // large (MaxClique's holds two arrays of its vertex capacity) recurses a few levels only.
  static constexpr int kLevels =
      static_cast<int>(std::max<std::size_t>(1, (std::size_t{256} << 10) / (sizeof(Node) + sizeof(Generator) + 256)));

  // The next child, built in its own variable: next()'s value initialises it directly (a prvalue,
  // so no copy). nextInto(), for writing into an existing frame, is DepthFirst's: here it measured
  // slower (UTS T1L seq 7.8 s against 7.0 s, AMD EPYC Zen 5).
  static Node child(Generator& gen) { return gen.next(); }

  // Returns false for a stop, having marked the search truncated if this level had children left.
  bool stopped(const Generator& gen, std::size_t left) {
    if (Steps::more(gen, left)) rules_.truncated = true;
    return false;
  }

  // n, visited at depth d and expandable: its subtree searched, or its children counted in bulk at
  // the depth limit. False: a stop ended the search; every caller returns at once.
  bool expand(const Node& n, int d) {
    if constexpr (NodeRules<M, K>::countsTwoLevels) {
      if (rules_.countsTwoLevelsInBulk(d)) {
        Steps::countTwoLevels(rules_, n, d);
        return true;
      }
    }
    if (Steps::countsLeaves(rules_, d)) {
      Steps::countLeaves(rules_, n, d);
      return true;
    }
    StopFlag& stop = rules_.stop();
    const typename NodeRules<M, K>::Local local = rules_.local();  // in this frame (node_rules.hpp)
    Generator gen = Steps::generator(rules_, n);
    Steps::countDroppedLeaves(rules_, gen, n, d);
    const std::size_t declared = Steps::opened(gen);
    std::size_t left = declared;  // Steps::more: the children left, or "open" without a count
    [[maybe_unused]] bool cut = false;  // a level prune ended the children early (checked builds)
    const int cd = d + 1;
    while (Steps::more(gen, left)) {
      Steps::take(gen, declared, left);
      Node c = child(gen);
      if (local.pruned(c)) {
        if constexpr (Steps::pruneLevel) left = 0, cut = true;
        continue;
      }
      if (cd >= limit_) [[unlikely]] {  // at the depth limit, or too deep for the call stack
        if (cd >= deepFrom_) {  // DepthFirst visits and searches c
          DepthFirst<M, K> dfs(rules_, noHooks_, deep_);
          dfs.run(std::move(c), cd);
        } else {  // at the depth limit: visited, not expanded
          local.visit(c, cd);
        }
        if (stop.requested()) return stopped(gen, left);
        continue;
      }
      local.visit(c, cd);
      if (stop.requested()) {
        if (Steps::hasChildren(rules_, c, cd)) rules_.truncated = true;
        return stopped(gen, left);
      }
      if (!expand(c, cd)) return stopped(gen, left);  // cd is below the depth limit: c is expandable
    }
    if (!cut) Check::atEnd(gen, declared);
    ++backtracks_;
    return true;
  }

  NodeRules<M, K>& rules_;
  DfsStack<M, K>& deep_;
  NoHooks noHooks_;
  int deepFrom_ = 0;  // children this deep continue on DepthFirst's explicit stack
  // The recursion's backtracks, counted here and added to the statistics when run() ends: one
  // increment through `this`, where the statistics sit behind the reference to the rules
  // (bench/results/generality.md).
  std::uint64_t backtracks_ = 0;
  int limit_ = 0;  // the lesser of deepFrom_ and the depth limit: one compare per child
};

}  // namespace jackdaw
