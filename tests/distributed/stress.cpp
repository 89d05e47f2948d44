// Stress: many short distributed searches in one mpirun launch, with random delays injected into
// every comm thread, cycling through the skeletons and genera; every count must equal OEIS A007323
// and no search may hang (CTest's timeout fails a hang).
//   mpirun -n K test_distributed_stress RUNS
#include <cstdio>
#include <cstdlib>
#include <string>

#include "jackdaw/comm/runtime.hpp"
#include "jackdaw/ns/model.hpp"
#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "jackdaw/skeletons/ordered.hpp"
#include "jackdaw/skeletons/stack_stealing.hpp"

int main(int argc, char** argv) {
  using namespace jackdaw;
  comm::Runtime mpi(argc, argv);
  const int runs = argc > 1 ? std::atoi(argv[1]) : 200;
  using M = ns::Model<ns::Sse2, 128>;
  using K = ns::Kind;
  // A007323, genus 0..14.
  const std::uint64_t known[] = {1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592, 1001, 1693};
  int failures = 0;
  for (int i = 0; i < runs; ++i) {
    DistributedOptions d;
    d.rank = mpi.rank();
    d.size = mpi.size();
    d.policy = (i % 3 == 0) ? "random" : (i % 3 == 1 ? "performance" : "proportional");
    d.comm.testDelayMaxUs = 300;
    d.comm.seed = 1000 + static_cast<std::uint64_t>(i);
    d.policyContext.seed = static_cast<std::uint64_t>(i);
    ParallelOptions po;
    po.runtime.threads = 1 + (i % 2);
    po.distributed = &d;
    SearchParams<long long> p;
    const int g = 10 + i % 5;
    p.maxDepth = g;
    p.spawnDepth = 1 + i % 3;
    p.backtrackBudget = 50;
    StopFlag stop;
    SearchResult<M, K> r;
    switch (i % 4) {
      case 0: r = depth_bounded::search<M, K>({}, M::root(), p, stop, po); break;
      case 1: r = budget::search<M, K>({}, M::root(), p, stop, po); break;
      case 2: r = stack_stealing::search<M, K>({}, M::root(), p, stop, po); break;
      default: r = ordered::search<M, K>({}, M::root(), p, stop, po); break;
    }
    if (mpi.rank() != 0) continue;
    for (int k = 0; k <= g; ++k)
      if (r.enumerator.get()[static_cast<std::size_t>(k)] != known[k]) {
        std::fprintf(stderr, "run %d (skeleton %d, genus %d, %s): genus %d counted %llu, expected %llu\n", i, i % 4, g,
                     d.policy.c_str(), k, static_cast<unsigned long long>(r.enumerator.get()[k]),
                     static_cast<unsigned long long>(known[k]));
        ++failures;
        break;
      }
  }
  if (mpi.rank() == 0) {
    std::printf("%d distributed searches on %d ranks with comm delays: %d wrong\n", runs, mpi.size(), failures);
    std::printf("%d passed, %d failed\n", runs - failures, failures);
  }
  return failures == 0 ? 0 : 1;
}
