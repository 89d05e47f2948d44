#include <algorithm>
#include <charconv>
#include <string_view>

#include "graph.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/input_file.hpp"

namespace chromatic {

namespace {
// The next whitespace-separated word of `line` from `pos` (empty at the end).
std::string_view word(std::string_view line, std::size_t& pos) {
  while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
  const std::size_t start = pos;
  while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t') ++pos;
  return line.substr(start, pos - start);
}
// A whole word as a number in [lo, hi], or false.
bool number(std::string_view s, long long lo, long long hi, long long& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && out >= lo && out <= hi;
}
}  // namespace

Graph readDimacs(const std::string& path, int maxVertices, std::uint64_t memoryLimit) {
  const std::string text = jackdaw::readTextFile(path, memoryLimit, "DIMACS graph");
  jackdaw::TextLines lines(text);
  const auto fail = [&](const std::string& what) { throw jackdaw::InputError(path, lines.number(), what); };
  Graph g;
  bool header = false;
  for (std::string_view line; lines.next(line);) {
    std::size_t pos = 0;
    const std::string_view tag = word(line, pos);
    if (tag.empty() || tag == "c") continue;
    if (tag == "p") {
      const std::string_view format = word(line, pos), n = word(line, pos), m = word(line, pos);
      long long vertices = 0, edges = 0;
      if (header) fail("a second 'p' line");
      if ((format != "edge" && format != "col") || !number(m, 0, 1LL << 40, edges) || !word(line, pos).empty())
        fail("expected 'p edge N M', found '" + jackdaw::excerpt(line) + "'");
      if (!number(n, 1, maxVertices, vertices))
        fail("this example colours graphs of 1 to " + std::to_string(maxVertices) + " vertices, not '" +
             jackdaw::excerpt(n) + "'");
      g.n = static_cast<int>(vertices);
      header = true;
    } else if (tag == "e") {
      long long u = 0, v = 0;
      if (!header) fail("an edge before the 'p' line");
      if (!number(word(line, pos), 1, g.n, u) || !number(word(line, pos), 1, g.n, v) || !word(line, pos).empty())
        fail("expected 'e U V' with U and V in 1.." + std::to_string(g.n) + ", found '" + jackdaw::excerpt(line) + "'");
      if (u == v) fail("a loop on vertex " + std::to_string(u) + ": no colouring exists");
      g.edges.emplace_back(static_cast<int>(std::min(u, v)) - 1, static_cast<int>(std::max(u, v)) - 1);
    } else {
      fail("unknown line '" + jackdaw::excerpt(line) + "' (expected c, p or e)");
    }
  }
  if (!header) throw jackdaw::InputError(path + ": no 'p edge N M' line");
  std::sort(g.edges.begin(), g.edges.end());
  g.edges.erase(std::unique(g.edges.begin(), g.edges.end()), g.edges.end());  // queen graphs list each twice
  return g;
}

}  // namespace chromatic
