// Memory budgets: a reader or a set-up step estimates what an instance or a platform will take
// and refuses it with a message before it allocates, instead of dying of std::bad_alloc (or the
// kernel's OOM killer) half-way through. The limit is the user's (--memory-limit in the apps and
// jackdaw-sim); its default is three quarters of the memory this process may use (the machine's,
// or less under a cgroup limit such as a Slurm job's --mem).
//
//   requireMemory(std::uint64_t(n) * n / 8, limit, "the adjacency matrix of " + std::to_string(n) + " vertices");
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "jackdaw/core/errors.hpp"

namespace jackdaw {

// The memory this process may use: physical memory, or a smaller cgroup (v2 or v1) limit.
inline std::uint64_t availableMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  std::uint64_t bytes = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                                               : std::uint64_t{8} << 30;
  for (const char* limitFile : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(limitFile);
    unsigned long long v = 0;
    if (in >> v && v > 0) bytes = std::min<std::uint64_t>(bytes, v);  // "max" reads as nothing
  }
  return bytes;
}

inline std::uint64_t defaultMemoryLimitBytes() { return availableMemoryBytes() / 4 * 3; }

// "1.5 GiB", "300 MiB", "12 KiB", "17 bytes".
inline std::string formatBytes(std::uint64_t b) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  char out[48];
  std::snprintf(out, sizeof out, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return out;
}

// a * b, or UINT64_MAX where it would overflow (an estimate only needs to know it is too big).
inline std::uint64_t saturatingMul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b;
}

// Throws InputError naming `what` when `bytes` exceeds `limit`.
inline void requireMemory(std::uint64_t bytes, std::uint64_t limit, const std::string& what) {
  if (bytes <= limit) return;
  throw InputError(what + " would take about " + formatBytes(bytes) + ", more than the memory limit of " +
                   formatBytes(limit) + " (--memory-limit; the default is 3/4 of the memory this process may use)");
}

}  // namespace jackdaw
