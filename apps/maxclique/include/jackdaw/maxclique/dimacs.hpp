// Strict reader for DIMACS undirected graphs (the clique/colouring challenge format).
//
//   auto g = jackdaw::maxclique::readDimacs("instances/dimacs/brock200_1.clq");
//   g.n, g.edges (0-based pairs, u < v, sorted, no duplicates)
//
// Accepted lines: `c ...` comments, exactly one `p edge N M` or `p col N M` before any edge,
// `e u v` with 1 <= u, v <= N and u != v; blank lines are ignored. Anything else throws
// jackdaw::InputError naming file and line. M is recorded but never trusted (DSJC500_5 states
// twice the edges it lists); repeated edges are merged. The file must be a regular file
// (core/input_file.hpp); the adjacency matrix the graph needs (N^2 bits) must fit the memory limit,
// checked at the 'p' line, before anything of that size is built.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <utility>
#include <vector>

#include "jackdaw/core/memory_budget.hpp"

namespace jackdaw::maxclique {

struct DimacsGraph {
  std::string source;                       // file name (for messages and reports)
  int n = 0;                                // vertices, 0 .. n-1
  std::size_t declaredEdges = 0;            // M from the p line (may be wrong)
  std::vector<std::pair<int, int>> edges;   // distinct, 0-based, first < second, sorted

  bool declaredEdgesMatch() const { return declaredEdges == edges.size(); }
};

// Reads a file; throws InputError if it is missing, not a regular file, malformed, or too large
// for `memoryLimit` (bytes; the apps pass --memory-limit).
DimacsGraph readDimacs(const std::string& path, std::uint64_t memoryLimit = defaultMemoryLimitBytes());

// Reads from a stream (at most `memoryLimit` bytes of it); `source` names it in error messages.
DimacsGraph readDimacs(std::istream& in, const std::string& source,
                       std::uint64_t memoryLimit = defaultMemoryLimitBytes());

// Bytes the search's adjacency matrix takes for n vertices (n rows of n bits, whole 64-bit words).
std::uint64_t adjacencyBytes(std::uint64_t n);

}  // namespace jackdaw::maxclique
