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

template <class M, class K>
jackdaw::SearchResult<M, K> run(const std::string& skel, int workers, const typename M::Space& space,
                                typename M::Node root, const typename jackdaw::SearchTypes<M, K>::Params& params,
                                std::vector<jackdaw::WorkerReport>* reports = nullptr,
                                jackdaw::StopFlag* stopFlag = nullptr, Split split = {}) {
  jackdaw::StopFlag local;
  jackdaw::StopFlag& stop = stopFlag ? *stopFlag : local;
  jackdaw::skeletons::Settings s;
  s.parallel.runtime.threads = workers;
  s.parallel.workers = reports;
  s.spawnDepth = split.spawnDepth;
  s.budget = split.budget;
  s.chunked = skel.ends_with("_chunked");
  s.discrepancy = skel.ends_with("_discrepancy");
  const std::string name = skel.substr(0, skel.find("_chunked") != std::string::npos ? skel.find("_chunked")
                                                : skel.find("_discrepancy"));
  return jackdaw::skeletons::run<M, K>(name, space, std::move(root), params, stop, s);
}

}  // namespace partest
