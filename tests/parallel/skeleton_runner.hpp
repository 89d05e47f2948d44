// Runs any multi-threaded skeleton by name, so every test covers every skeleton.
#pragma once

#include <string>
#include <vector>

#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "jackdaw/skeletons/ordered.hpp"
#include "jackdaw/skeletons/stack_stealing.hpp"

namespace partest {

// Every skeleton variant: name → (skeleton, chunked/discrepancy flag).
inline const std::vector<std::string>& skeletons() {
  static const std::vector<std::string> s{"depth_bounded", "budget", "stack_stealing", "stack_stealing_chunked",
                                          "ordered", "ordered_discrepancy"};
  return s;
}

template <class M, class K>
jackdaw::SearchResult<M, K> run(const std::string& skel, int workers, const typename M::Space& space,
                                typename M::Node root, const typename jackdaw::SearchTypes<M, K>::Params& params,
                                std::vector<jackdaw::WorkerReport>* reports = nullptr,
                                jackdaw::StopFlag* stopFlag = nullptr) {
  jackdaw::StopFlag local;
  jackdaw::StopFlag& stop = stopFlag ? *stopFlag : local;
  jackdaw::ParallelOptions o;
  o.runtime.threads = workers;
  o.workers = reports;
  o.chunked = skel == "stack_stealing_chunked";
  o.discrepancy = skel == "ordered_discrepancy";
  if (skel == "depth_bounded") return jackdaw::depth_bounded::search<M, K>(space, root, params, stop, o);
  if (skel == "budget") return jackdaw::budget::search<M, K>(space, root, params, stop, o);
  if (skel.starts_with("stack_stealing")) return jackdaw::stack_stealing::search<M, K>(space, root, params, stop, o);
  return jackdaw::ordered::search<M, K>(space, root, params, stop, o);
}

}  // namespace partest
