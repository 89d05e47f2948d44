// Runs any multi-threaded skeleton by name through the skeleton table, so every test covers every
// skeleton (and the table's mapping of settings onto each skeleton's options).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jackdaw/skeletons/table.hpp"

namespace partest {

// Every parallel skeleton variant: the table's names, with chunked / discrepancy as variants.
inline const std::vector<std::string>& skeletons() {
  static const std::vector<std::string> s = [] {
    std::vector<std::string> v;
    for (const auto& n : jackdaw::skeletons::names()) {
      if (!jackdaw::skeletons::isParallel(n)) continue;
      v.push_back(n);
      if (n == jackdaw::skeletons::StackStealing::name) v.push_back(n + "_chunked");
      if (n == jackdaw::skeletons::Ordered::name) v.push_back(n + "_discrepancy");
      // The automatic grain, aimed at 20 us so that it retunes and deepens even on small trees.
      if (n == jackdaw::skeletons::Budget::name || n == jackdaw::skeletons::DepthBounded::name) v.push_back(n + "_auto");
      // Without the hunger rule: the task tree depends only on the grain (what a trace records).
      if (n == jackdaw::skeletons::Budget::name || n == jackdaw::skeletons::DepthBounded::name) v.push_back(n + "_exact");
    }
    return v;
  }();
  return s;
}

// How the work is split: -d and -b.
struct Split {
  int spawnDepth = 2;
  std::uint64_t budget = 7;  // tiny, so budget splits often
};

// A variant's table name and settings ("budget_auto": budget with the automatic grain;
// "budget_exact": without ParallelOptions::splitOnHunger).
struct Variant {
  std::string name;
  jackdaw::skeletons::Settings settings;
};
inline Variant variant(const std::string& skel, int workers, Split split = {}) {
  Variant v;
  auto& s = v.settings;
  s.parallel.runtime.threads = workers;
  s.spawnDepth = split.spawnDepth;
  s.budget = split.budget;
  s.chunked = skel.ends_with("_chunked");
  s.discrepancy = skel.ends_with("_discrepancy");
  const bool automatic = skel.ends_with("_auto");
  const bool exact = skel.ends_with("_exact");
  s.parallel.splitOnHunger = !exact;
  v.name = s.chunked || s.discrepancy || automatic || exact ? skel.substr(0, skel.rfind('_')) : skel;
  s.budgetAuto = automatic && v.name == jackdaw::skeletons::Budget::name;
  s.spawnDepthAuto = automatic && v.name == jackdaw::skeletons::DepthBounded::name;
  if (automatic) s.grainTargetSeconds = 20e-6;
  return v;
}

template <class M, class K>
jackdaw::SearchResult<M, K> run(const std::string& skel, int workers, const typename M::Space& space,
                                typename M::Node root, const typename jackdaw::SearchTypes<M, K>::Params& params,
                                std::vector<jackdaw::WorkerReport>* reports = nullptr,
                                jackdaw::StopFlag* stopFlag = nullptr, Split split = {}) {
  jackdaw::StopFlag local;
  jackdaw::StopFlag& stop = stopFlag ? *stopFlag : local;
  Variant v = variant(skel, workers, split);
  v.settings.parallel.workers = reports;
  return jackdaw::skeletons::run<M, K>(v.name, space, std::move(root), params, stop, v.settings);
}

}  // namespace partest
