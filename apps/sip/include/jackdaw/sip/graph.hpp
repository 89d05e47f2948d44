// Undirected graphs for subgraph isomorphism, read from LAD or CSV edge-list files.
//
//   jackdaw::sip::Graph g = jackdaw::sip::readGraph("pattern.csv");   // format from the extension
//   g.adjacent(u, v); g.loop(v); g.degree[v]; g.names[v]
//
// LAD: line 1 holds n; then one line per vertex i (0-based): its degree, then its neighbours.
// An edge listed on one side only still counts (the graph is undirected); i listing i is a loop.
// CSV: one 'a,b' edge per line; 'a,' declares an isolated vertex; 'x,x' is a loop. Names are
// strings, numbered in order of first appearance.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// Throws jackdaw::InputError naming file:line for anything malformed.
Graph readGraph(const std::string& path, Format format = Format::Auto);

}  // namespace jackdaw::sip
