#include "jackdaw/maxclique/dimacs.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string_view>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/input_file.hpp"

namespace jackdaw::maxclique {

namespace {

// Whitespace-separated tokens of one line (DIMACS files in the wild use tabs and runs of spaces).
std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// A whole token as a non-negative integer, or false.
template <class T>
bool parseNumber(std::string_view s, T& v) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

DimacsGraph parse(std::string_view text, const std::string& source, std::uint64_t memoryLimit) {
  DimacsGraph g;
  g.source = source;
  bool haveP = false;
  std::size_t pLine = 0;
  TextLines lines(text);
  auto fail = [&](const std::string& what) { throw InputError(source, lines.number(), what); };

  for (std::string_view line; lines.next(line);) {
    const auto t = tokens(line);
    if (t.empty()) continue;
    if (t[0] == "c") continue;
    if (t[0] == "p") {
      if (haveP) fail("repeated 'p' line (the first is on line " + std::to_string(pLine) + ")");
      if (t.size() != 4) fail("malformed 'p' line, expected 'p edge N M'");
      if (t[1] != "edge" && t[1] != "col")
        fail("unknown format '" + excerpt(t[1]) + "' in 'p' line, expected 'edge' or 'col'");
      long long n = 0;
      if (!parseNumber(t[2], n) || n < 0 || n > std::numeric_limits<int>::max())
        fail("bad vertex count '" + excerpt(t[2]) + "' in 'p' line");
      if (!parseNumber(t[3], g.declaredEdges)) fail("bad edge count '" + excerpt(t[3]) + "' in 'p' line");
      requireMemoryAt(source, lines.number(), adjacencyBytes(static_cast<std::uint64_t>(n)), memoryLimit,
                      "the adjacency matrix of " + std::to_string(n) + " vertices");
      g.n = static_cast<int>(n);
      haveP = true;
      pLine = lines.number();
      continue;
    }
    if (t[0] == "e") {
      if (!haveP) fail("edge before the 'p' line");
      if (t.size() != 3) fail("malformed edge line, expected 'e u v'");
      long long u = 0, v = 0;
      if (!parseNumber(t[1], u) || !parseNumber(t[2], v)) fail("malformed edge line, vertices must be integers");
      if (u < 1 || u > g.n || v < 1 || v > g.n)
        fail("vertex out of range in edge " + std::to_string(u) + " " + std::to_string(v) + " (vertices are 1.." +
             std::to_string(g.n) + ")");
      if (u == v) fail("self-loop on vertex " + std::to_string(u));
      const int a = static_cast<int>(std::min(u, v)) - 1, b = static_cast<int>(std::max(u, v)) - 1;
      g.edges.emplace_back(a, b);
      continue;
    }
    fail("unknown line type '" + excerpt(t[0]) + "' (expected c, p or e)");
  }
  if (!haveP) throw InputError(source + ": missing 'p edge N M' line");

  std::sort(g.edges.begin(), g.edges.end());
  g.edges.erase(std::unique(g.edges.begin(), g.edges.end()), g.edges.end());
  return g;
}

}  // namespace

std::uint64_t adjacencyBytes(std::uint64_t n) { return saturatingMul(n, (n + 63) / 64 * 8); }

DimacsGraph readDimacs(std::istream& in, const std::string& source, std::uint64_t memoryLimit) {
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    requireMemory(text.size() + static_cast<std::uint64_t>(in.gcount()), memoryLimit, "the DIMACS input " + source);
    text.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw InputError(source + ": read error");
  checkText(source, text);
  return parse(text, source, memoryLimit);
}

DimacsGraph readDimacs(const std::string& path, std::uint64_t memoryLimit) {
  const std::string text = readTextFile(path, memoryLimit, "DIMACS file");
  return parse(text, path, memoryLimit);
}

}  // namespace jackdaw::maxclique
