// Runs a parallel skeleton over every rank of MPI_COMM_WORLD (the distributed mode of
// ParallelSearch). Every rank must call it with the same arguments, in the same order: the
// search is collective. Only rank 0's result is the combined one.
#pragma once

#include <mpi.h>

#include <string>

#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "jackdaw/skeletons/detail/distributed.hpp"
#include "jackdaw/skeletons/ordered.hpp"
#include "jackdaw/skeletons/stack_stealing.hpp"

namespace disttest {

inline int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

inline const char* const kSkeletons[] = {"depth_bounded", "budget", "stack_stealing", "ordered"};

struct Config {
  std::string skeleton;
  int workers = 1;
  unsigned commDelayUs = 0;  // the comm layer's test delays
  std::uint64_t seed = 1;
  bool chunked = false;
};

template <class M, class K>
jackdaw::SearchResult<M, K> run(const Config& c, const typename M::Space& space, typename M::Node root,
                                const typename jackdaw::SearchTypes<M, K>::Params& params) {
  jackdaw::StopFlag stop;
  jackdaw::DistributedOptions d;
  d.world = MPI_COMM_WORLD;
  d.rank = rank();
  d.size = size();
  d.policy = "random";
  d.policyContext.seed = c.seed;
  d.comm.seed = c.seed;
  d.comm.testDelayMaxUs = c.commDelayUs;
  d.comm.stealHalf = c.chunked;
  jackdaw::ParallelOptions o;
  o.runtime.threads = c.workers;
  o.chunked = c.chunked;
  o.distributed = &d;
  const auto& s = c.skeleton;
  if (s == "depth_bounded") return jackdaw::depth_bounded::search<M, K>(space, root, params, stop, o);
  if (s == "budget") return jackdaw::budget::search<M, K>(space, root, params, stop, o);
  if (s == "stack_stealing") return jackdaw::stack_stealing::search<M, K>(space, root, params, stop, o);
  return jackdaw::ordered::search<M, K>(space, root, params, stop, o);
}

}  // namespace disttest
