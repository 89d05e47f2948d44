// Stress: many short distributed searches in one mpirun launch, with random delays injected into
// every comm thread, cycling through the skeletons and genera; every count must equal OEIS A007323
// and no search may hang (CTest's timeout fails a hang).
//   mpirun -n K test_distributed_stress RUNS
#include <cstdio>
#include <cstdlib>
#include <string>

#include "jackdaw/comm/runtime.hpp"
#include "../comm/random_stalls.hpp"
#include "jackdaw/distributed/launch.hpp"
#include "jackdaw/ns/model.hpp"
#include "jackdaw/skeletons/table.hpp"

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
    comm::SessionConfig d;
    d.steal.policy = (i % 3 == 0) ? "random" : (i % 3 == 1 ? "performance" : "proportional");
    comm::testing::RandomStalls stalls(300, 1000 + static_cast<std::uint64_t>(i), mpi.rank());
    d.comm.events = &stalls;
    d.steal.seed = static_cast<std::uint64_t>(i);
    skeletons::Settings s;
    s.parallel.runtime.threads = 1 + (i % 2);
    s.spawnDepth = 1 + i % 3;
    s.budget = 50;
    SearchParams<long long> p;
    const int g = 10 + i % 5;
    p.maxDepth = g;
    StopFlag stop;
    const char* const names[] = {"depth_bounded", "budget", "stack_stealing", "ordered"};
    auto r = skeletons::run<M, K>(names[i % 4], {}, M::root(), p, stop, s, distributed::Launch(d));
    if (mpi.rank() != 0) continue;
    for (int k = 0; k <= g; ++k)
      if (r.enumerator.get()[static_cast<std::size_t>(k)] != known[k]) {
        std::fprintf(stderr, "run %d (skeleton %d, genus %d, %s): genus %d counted %llu, expected %llu\n", i, i % 4, g,
                     d.steal.policy.c_str(), k, static_cast<unsigned long long>(r.enumerator.get()[k]),
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
