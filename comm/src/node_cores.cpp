#include "jackdaw/comm/node_cores.hpp"

#include <sched.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <thread>

namespace jackdaw::comm {

namespace {
constexpr int kMaskWords = CPU_SETSIZE / 64;

// This process's affinity as bit words; all CPUs the system reports if the call fails.
std::array<std::uint64_t, kMaskWords> affinityMask() {
  std::array<std::uint64_t, kMaskWords> words{};
  cpu_set_t set;
  CPU_ZERO(&set);
  const bool ok = sched_getaffinity(0, sizeof set, &set) == 0;
  const int n = ok ? CPU_SETSIZE : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int c = 0; c < n && c < CPU_SETSIZE; ++c)
    if (!ok || CPU_ISSET(c, &set)) words[c / 64] |= std::uint64_t{1} << (c % 64);
  return words;
}
}  // namespace

bool workersHaveOwnCores(MPI_Comm world, int workers) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  const auto mine = affinityMask();
  std::array<std::uint64_t, kMaskWords> all{};
  MPI_Allreduce(mine.data(), all.data(), kMaskWords, MPI_UINT64_T, MPI_BOR, node);
  int nodeWorkers = 0;
  MPI_Allreduce(&workers, &nodeWorkers, 1, MPI_INT, MPI_SUM, node);
  MPI_Comm_free(&node);
  int cpus = 0;
  for (auto w : all) cpus += std::popcount(w);
  return nodeWorkers <= cpus;
}

}  // namespace jackdaw::comm
