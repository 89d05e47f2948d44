// Undirected graphs for subgraph isomorphism, read from LAD or CSV edge-list files.
//
//   jackdaw::sip::Graph g = jackdaw::sip::readGraph("pattern.csv");   // format from the extension
//   g.adjacent(u, v); g.loop(v); g.degree[v]; g.names[v]
//
// LAD: line 1 holds n; then one line per vertex i (0-based): its degree, then its neighbours.
// An edge listed on one side only still counts (the graph is undirected); i listing i is a loop.
// CSV: one 'a,b' edge per line; 'a,' declares an isolated vertex; 'x,x' is a loop. Names are
// strings, numbered in order of first appearance.
//
// Limits: at most kMaxVertices vertices, and the adjacency matrix (n^2 bits) with the names must fit
// the memory limit, checked before anything of that size is allocated (LAD: at its first line; CSV:
// as new names appear). The file must be a regular file (core/input_file.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jackdaw/core/memory_budget.hpp"

namespace jackdaw::sip {

struct Graph {
  int n = 0;
  int words = 0;                     // 64-bit words per adjacency row
  std::vector<std::uint64_t> adj;    // n rows of `words` words; a loop sets the diagonal bit
  std::vector<int> degree;           // neighbours other than the vertex itself
  std::vector<std::string> names;    // as in the file (LAD: the 0-based index)

  const std::uint64_t* row(int v) const { return &adj[static_cast<std::size_t>(v) * words]; }
  bool adjacent(int u, int v) const { return (row(u)[v >> 6] >> (v & 63)) & 1; }
  bool loop(int v) const { return adjacent(v, v); }
};

enum class Format { Auto, Lad, Csv };

inline constexpr long long kMaxVertices = 1 << 22;

// Bytes a graph of n vertices takes: its adjacency rows, degrees and names.
std::uint64_t graphBytes(std::uint64_t n);

// Throws jackdaw::InputError naming file:line for anything malformed or too large for
// `memoryLimit` (bytes; the apps pass --memory-limit).
Graph readGraph(const std::string& path, Format format = Format::Auto,
                std::uint64_t memoryLimit = defaultMemoryLimitBytes());

}  // namespace jackdaw::sip
