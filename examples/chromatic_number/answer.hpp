// What both searches print and write to --stats: the instance, and a colouring checked before it
// is shown (a wrong answer must never be printed).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "graph.hpp"
#include "jackdaw/app/finish.hpp"
#include "model.hpp"

namespace chromatic {

// The colouring of a complete node, after checking that it is proper and uses `colours` colours at
// most; otherwise std::logic_error (the frame: exit 1).
inline std::vector<int> checkedColouring(const Graph& g, const Node& node, int colours) {
  std::vector<int> c(node.colour.begin(), node.colour.begin() + g.n);
  bool proper = node.complete;
  for (const auto& [u, v] : g.edges) proper = proper && c[u] != c[v];
  for (int x : c) proper = proper && x >= 0 && x < colours;
  if (!proper) throw std::logic_error("internal error: the search returned a colouring that is not proper");
  return c;
}

inline std::string joined(const std::vector<int>& xs) {
  std::string s;
  for (int x : xs) {
    if (!s.empty()) s += ' ';
    s += std::to_string(x);
  }
  return s;
}

// The answer's first line and --stats fields: the instance.
inline jackdaw::app::Answer instanceAnswer(const std::string& file, const Graph& g) {
  jackdaw::app::Answer a;
  a.line("graph", file + " (" + std::to_string(g.n) + " vertices, " + std::to_string(g.edges.size()) + " edges)");
  a.fields = {{"file", file}, {"vertices", g.n}, {"edges", g.edges.size()}};
  return a;
}

}  // namespace chromatic
