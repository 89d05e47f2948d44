// The CPUs this process may use, as hwloc reports them, and pinning a thread to one core.
//
//   int w = jackdaw::CpuSet::current().count();   // follows Slurm --cpus-per-task, mpirun --bind-to
//   jackdaw::CpuSet::current().bindThisThread(k); // pin to the k-th allowed core (wraps around)
#pragma once

#include <hwloc.h>

#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace jackdaw {

class CpuSet {
 public:
  // The process's CPU binding at first use (the set it was started with).
  static const CpuSet& current() {
    static const CpuSet s;
    return s;
  }

  // Processing units the process may run on (at least 1).
  int count() const { return puCount_; }
  // Cores (or, where hwloc sees none, PUs) the binding order walks through.
  int cores() const { return static_cast<int>(coreSets_.size()); }

  // Pin the calling thread to the k-th allowed core (k modulo cores()); false if hwloc refused.
  bool bindThisThread(int k) const {
    if (coreSets_.empty()) return false;
    std::lock_guard lock(mutex_);
    const hwloc_bitmap_t set = coreSets_[static_cast<std::size_t>(k) % coreSets_.size()].get();
    return hwloc_set_cpubind(topo_, set, HWLOC_CPUBIND_THREAD) == 0;
  }
  // Undo a pin: back to the whole process set.
  bool unbindThisThread() const {
    std::lock_guard lock(mutex_);
    return hwloc_set_cpubind(topo_, allowed_.get(), HWLOC_CPUBIND_THREAD) == 0;
  }

  CpuSet(const CpuSet&) = delete;
  CpuSet& operator=(const CpuSet&) = delete;
  ~CpuSet() { hwloc_topology_destroy(topo_); }

 private:
  struct FreeBitmap {
    void operator()(hwloc_bitmap_s* b) const { hwloc_bitmap_free(b); }
  };
  using Bitmap = std::unique_ptr<hwloc_bitmap_s, FreeBitmap>;

  CpuSet() : allowed_(hwloc_bitmap_alloc()) {
    if (hwloc_topology_init(&topo_) != 0 || hwloc_topology_load(topo_) != 0)
      throw std::runtime_error("hwloc: cannot load the machine topology");
    // The binding of the process is what Slurm / mpirun gave us; fall back to the allowed set.
    if (hwloc_get_cpubind(topo_, allowed_.get(), HWLOC_CPUBIND_PROCESS) != 0 || hwloc_bitmap_iszero(allowed_.get()))
      hwloc_bitmap_copy(allowed_.get(), hwloc_topology_get_allowed_cpuset(topo_));
    const int w = hwloc_bitmap_weight(allowed_.get());
    puCount_ = w > 0 ? w : 1;
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

  hwloc_topology_t topo_{};
  Bitmap allowed_;
  std::vector<Bitmap> coreSets_;
  int puCount_ = 1;
  mutable std::mutex mutex_;  // hwloc topology calls are not documented as thread-safe
};

}  // namespace jackdaw
