// Counters of one search (one worker's, or a total). Plain integers: each worker owns its own
// copy and they are added up at the end, so the hot path never touches shared memory.
#pragma once

#include <cstdint>

namespace jackdaw {

struct SearchStats {
  std::uint64_t nodes = 0;       // nodes visited: accumulated / objective-checked (root included)
  std::uint64_t prunes = 0;      // children discarded by the bound (a prune-level cut counts once)
  std::uint64_t backtracks = 0;  // expanded nodes whose children were all done
  std::uint64_t maxDepth = 0;    // deepest node visited

  SearchStats& operator+=(const SearchStats& o) {
    nodes += o.nodes;
    prunes += o.prunes;
    backtracks += o.backtracks;
    if (o.maxDepth > maxDepth) maxDepth = o.maxDepth;
    return *this;
  }
};

}  // namespace jackdaw
