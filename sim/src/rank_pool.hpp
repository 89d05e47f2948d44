#pragma once

#include <cstdint>

#include "jackdaw/core/work_pool.hpp"

namespace jackdaw::sim::detail {

// A rank's pool is the engine's DepthPool (core/work_pool.hpp): the owner takes the deepest task,
// a thief the shallowest, within a depth first in first out. The order matters to branch and
// bound: a model's generator yields its most promising children first.
struct PooledTask {
  std::uint64_t id = 0;  // packed: tree and task (job.hpp)
  int depth = 0;
};
using Pool = DepthPool<PooledTask>;

}  // namespace jackdaw::sim::detail
