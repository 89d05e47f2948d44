// Counters of one search (one worker's, or a total). Each worker owns its own copy and they are
// added up at the end, so the hot path never touches shared memory. `nodes` is also read while
// the search runs (--progress, see live_nodes.hpp): its owner bumps it with addNodes(), a relaxed
// atomic store (a plain move on x86, no locked instruction), and any thread may call liveNodes().
#pragma once

#include <atomic>
#include <cstdint>

namespace jackdaw {

struct SearchStats {
  std::uint64_t nodes = 0;       // nodes visited: accumulated / objective-checked (root included)
  std::uint64_t prunes = 0;      // children discarded by the bound (a prune-level cut counts once)
  std::uint64_t backtracks = 0;  // expanded nodes whose children were all done
  std::uint64_t maxDepth = 0;    // deepest node visited

  void addNodes(std::uint64_t k) noexcept {
    std::atomic_ref<std::uint64_t> a(nodes);
    a.store(a.load(std::memory_order_relaxed) + k, std::memory_order_relaxed);
  }
  std::uint64_t liveNodes() const noexcept {
    return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(nodes)).load(std::memory_order_relaxed);
  }

  SearchStats& operator+=(const SearchStats& o) {
    nodes += o.nodes;
    prunes += o.prunes;
    backtracks += o.backtracks;
    if (o.maxDepth > maxDepth) maxDepth = o.maxDepth;
    return *this;
  }
};

}  // namespace jackdaw
