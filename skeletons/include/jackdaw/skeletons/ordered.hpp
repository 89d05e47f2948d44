// Ordered skeleton: the nodes above the cutoff depth (spawnDepth, -d) are expanded first,
// sequentially, in the sequential search's order; the subtrees at the cutoff become tasks that run
// smallest priority first: left-to-right (the sequential order), or with discrepancy the
// number of discrepancies on the path (children taken other than the first), ties left-to-right.
// The task order does not depend on timing, so runs are replicable.
//
//   jackdaw::ordered::Options o;  o.runtime.threads = 4;  o.discrepancy = true;
//   auto r = jackdaw::ordered::search<MyModel, jackdaw::Optimisation>(space, root, params, o);
//
// A child's index counts the children that survived the bound test before it (pruned children are
// never generated as tasks, so they are not counted as discrepancies).
#pragma once

#include <cstdint>
#include <vector>

#include "jackdaw/core/priority_pool.hpp"
#include "jackdaw/skeletons/detail/parallel_search.hpp"

namespace jackdaw::ordered {

struct Options : ParallelOptions {
  int spawnDepth = 2;        // nodes above this depth are expanded up front; their subtrees are tasks
  bool discrepancy = false;  // run tasks in discrepancy order instead of left-to-right
};

template <SearchModel M, SearchKind K, class Launch = detail::LocalLaunch>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, StopFlag& stop, const Options& opts,
                          Launch&& launch = {}) {
  using Node = typename M::Node;
  using TaskT = detail::Task<Node>;
  using S = detail::ParallelSearch<M, K, PriorityPool<TaskT>>;
  S s(space, params, stop, opts.runtime);

  // Expands the nodes above the cutoff on one thread, collecting the cutoff subtrees in order.
  struct Prepass {
    NodeRules<M, K>& rules;
    int cutoff;
    bool discrepancy;
    std::vector<TaskT>& out;
    struct Level {
      std::uint64_t discrepancies;
      std::uint64_t nextChild;
    };
    std::vector<Level> path{{0, 0}};

    bool spawnsChildrenOf(int depth) const { return depth < cutoff; }
    void spawn(Node&& child, int depth) {
      Level& parent = path.back();
      const std::uint64_t disc = parent.discrepancies + (parent.nextChild++ != 0 ? 1 : 0);
      if (depth < cutoff) {
        path.push_back({disc, 0});
        DepthFirst<M, K, Prepass> sub(rules, *this);
        sub.run(std::move(child), depth);
        path.pop_back();
      } else {
        // Ties keep insertion order, which is left-to-right.
        out.push_back({std::move(child), depth, discrepancy ? disc : 0});
      }
    }
  };

  auto body = [](typename S::Slot& slot, TaskT&& t) {
    runHot<M>([&] {  // the engine a local of the hot function (see depth_pool_search.hpp)
      NoHooks h;
      DepthFirst<M, K> dfs(slot.rules, h, slot.stack);
      dfs.run(std::move(t.node), t.depth);
    });
  };
  auto seed = [&] {
    std::vector<TaskT> tasks;
    if (opts.spawnDepth <= 0) {
      tasks.push_back({std::move(root), 0, 0});
    } else {
      Prepass p{s.self().rules, opts.spawnDepth, opts.discrepancy, tasks};
      DepthFirst<M, K, Prepass> dfs(s.self().rules, p);
      dfs.run(std::move(root), 0);
    }
    s.pushAll(std::move(tasks));
  };
  return detail::runParallel(s, opts, body, seed, std::forward<Launch>(launch));
}

template <SearchModel M, SearchKind K>
SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                          const typename SearchTypes<M, K>::Params& params, const Options& opts = {}) {
  StopFlag stop;
  return search<M, K>(space, std::move(root), params, stop, opts);
}

}  // namespace jackdaw::ordered
