// CpuSet counts the CPUs of the process's affinity mask without hwloc, and loads hwloc's topology
// only to pin: the count must agree with what hwloc itself reports for the same process.
#include <gtest/gtest.h>
#include <hwloc.h>
#include <sched.h>

#include <cstdlib>

#include "jackdaw/core/cpu_set.hpp"

namespace {

// hwloc's view of this process's binding, from a topology of its own.
int hwlocCount() {
  hwloc_topology_t t;
  if (hwloc_topology_init(&t) != 0 || hwloc_topology_load(t) != 0) return -1;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  int n = -1;
  if (hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS) == 0) n = hwloc_bitmap_weight(set);
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(t);
  return n;
}

}  // namespace

TEST(CpuSet, CountAgreesWithHwloc) {
  const int hw = hwlocCount();
  ASSERT_GT(hw, 0);
  EXPECT_EQ(jackdaw::CpuSet::current().count(), hw);
  EXPECT_GE(jackdaw::CpuSet::current().cores(), 1);
  EXPECT_LE(jackdaw::CpuSet::current().cores(), hw);
}

// A process narrowed to one CPU before the first use counts one, as `taskset -c N` or a launcher's
// binding would give. Run in a fresh process (the set is fixed at first use in each process).
TEST(CpuSet, FollowsTheAffinityMaskAtFirstUse) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        cpu_set_t mask;
        CPU_ZERO(&mask);
        if (sched_getaffinity(0, sizeof mask, &mask) != 0) std::_Exit(100);
        int first = 0;
        while (first < CPU_SETSIZE && !CPU_ISSET(first, &mask)) ++first;
        CPU_ZERO(&mask);
        CPU_SET(first, &mask);
        if (sched_setaffinity(0, sizeof mask, &mask) != 0) std::_Exit(101);
        const jackdaw::CpuSet& s = jackdaw::CpuSet::current();
        // Pinning loads the topology; the core walked through is the one CPU left.
        std::_Exit(s.count() * 10 + s.cores() + (s.bindThisThread(3) ? 0 : 50));
      },
      testing::ExitedWithCode(11), "");
}
