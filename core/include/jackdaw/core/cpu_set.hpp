// The CPUs this process may use, and pinning a thread to one core.
//
//   int w = jackdaw::CpuSet::current().count();   // follows Slurm --cpus-per-task, mpirun --bind-to
//   jackdaw::CpuSet::current().bindThisThread(k); // pin to the k-th allowed core (wraps around)
//
// The count is the kernel's affinity mask at first use, read in one system call. hwloc's topology,
// which only pinning needs, is loaded the first time a thread is pinned (or cores() is asked):
// loading it reads some hundred sysfs files and, with the distribution's hwloc, dlopens plugins
// that pull in libxml2, ICU, OpenCL and X11 — milliseconds that every short run paid
// (bench/results/startup.md).
#pragma once

#include <hwloc.h>
#include <sched.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace jackdaw {

// hwloc's I/O plugins (PCI, OpenCL, GL: the last tries an X display) and its libxml2 reader say
// nothing Jackdaw uses; loading them costs milliseconds. For HWLOC_PLUGINS_BLACKLIST, set before
// hwloc first loads its plugins; a user's own setting stands. (comm's runtime sets the same for
// Open MPI's hwloc: comm sits beside core and does not include it.)
inline constexpr const char* kHwlocUnusedPlugins = "hwloc_gl,hwloc_opencl,hwloc_pci,hwloc_xml_libxml";

class CpuSet {
 public:
  // The process's CPU binding at first use (the set it was started with).
  static const CpuSet& current() {
    static const CpuSet s;
    return s;
  }

  // Processing units the process may run on (at least 1).
  int count() const { return puCount_; }
  // Cores (or, where hwloc sees none, PUs) the binding order walks through. Loads the topology.
  int cores() const {
    load();
    return static_cast<int>(coreSets_.size());
  }

  // Pin the calling thread to the k-th allowed core (k modulo cores()); false if hwloc refused.
  bool bindThisThread(int k) const {
    load();
    if (coreSets_.empty()) return false;
    std::lock_guard lock(mutex_);
    const hwloc_bitmap_t set = coreSets_[static_cast<std::size_t>(k) % coreSets_.size()].get();
    return hwloc_set_cpubind(topo_, set, HWLOC_CPUBIND_THREAD) == 0;
  }
  // Undo a pin: back to the whole process set.
  bool unbindThisThread() const {
    load();
    std::lock_guard lock(mutex_);
    return hwloc_set_cpubind(topo_, allowed_.get(), HWLOC_CPUBIND_THREAD) == 0;
  }

  CpuSet(const CpuSet&) = delete;
  CpuSet& operator=(const CpuSet&) = delete;
  ~CpuSet() {
    if (topo_) hwloc_topology_destroy(topo_);
  }

 private:
  struct FreeBitmap {
    void operator()(hwloc_bitmap_s* b) const { hwloc_bitmap_free(b); }
  };
  using Bitmap = std::unique_ptr<hwloc_bitmap_s, FreeBitmap>;

  CpuSet() : allowed_(hwloc_bitmap_alloc()) {
    // The calling thread's mask: at first use that is the process's (Slurm and mpirun bind the
    // process before it starts; the workers are not created yet).
    for (int cpus = 1024; cpus <= (1 << 20); cpus *= 4) {
      cpu_set_t* mask = CPU_ALLOC(cpus);
      const std::size_t bytes = CPU_ALLOC_SIZE(cpus);
      CPU_ZERO_S(bytes, mask);
      const bool got = sched_getaffinity(0, bytes, mask) == 0;
      if (got)
        for (int c = 0; c < cpus; ++c)
          if (CPU_ISSET_S(c, bytes, mask)) hwloc_bitmap_set(allowed_.get(), static_cast<unsigned>(c));
      CPU_FREE(mask);
      if (got) break;  // EINVAL: the kernel's mask is wider than this one; try a wider one
    }
    if (hwloc_bitmap_iszero(allowed_.get())) {
      load();  // no mask from the kernel: the topology's binding or allowed set, as hwloc reports it
    }
    const int w = hwloc_bitmap_weight(allowed_.get());
    puCount_ = w > 0 ? w : 1;
  }

  // Loads hwloc's topology and the cores pinning walks through, once.
  void load() const {
    std::call_once(loaded_, [this] { loadTopology(); });
  }
  void loadTopology() const {
    setenv("HWLOC_PLUGINS_BLACKLIST", kHwlocUnusedPlugins, 0);
    if (hwloc_topology_init(&topo_) != 0 || hwloc_topology_load(topo_) != 0)
      throw std::runtime_error("hwloc: cannot load the machine topology");
    if (hwloc_bitmap_iszero(allowed_.get())) {
      // The binding of the process is what Slurm / mpirun gave us; fall back to the allowed set.
      if (hwloc_get_cpubind(topo_, allowed_.get(), HWLOC_CPUBIND_PROCESS) != 0 || hwloc_bitmap_iszero(allowed_.get()))
        hwloc_bitmap_copy(allowed_.get(), hwloc_topology_get_allowed_cpuset(topo_));
    }
    for (hwloc_obj_type_t type : {HWLOC_OBJ_CORE, HWLOC_OBJ_PU}) {
      const int n = hwloc_get_nbobjs_by_type(topo_, type);
      for (int i = 0; i < n; ++i) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo_, type, static_cast<unsigned>(i));
        Bitmap s(hwloc_bitmap_alloc());
        hwloc_bitmap_and(s.get(), o->cpuset, allowed_.get());
        if (!hwloc_bitmap_iszero(s.get())) coreSets_.push_back(std::move(s));
      }
      if (!coreSets_.empty()) break;
    }
  }

  // The topology and the core sets are filled once, by load(), and read-only after it.
  mutable hwloc_topology_t topo_{};
  mutable Bitmap allowed_;
  mutable std::vector<Bitmap> coreSets_;
  mutable std::once_flag loaded_;
  int puCount_ = 1;
  mutable std::mutex mutex_;  // hwloc topology calls are not documented as thread-safe
};

}  // namespace jackdaw
