#include <charconv>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/input_file.hpp"
#include "jackdaw/sip/graph.hpp"

namespace jackdaw::sip {

namespace {

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

bool toInt(std::string_view t, long long& v) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 10);
  return !t.empty() && ec == std::errc() && end == t.data() + t.size();
}

Graph withVertices(int n) {
  Graph g;
  g.n = n;
  g.words = (n + 63) / 64;
  g.adj.assign(static_cast<std::size_t>(n) * g.words, 0);
  g.degree.assign(n, 0);
  return g;
}

void addEdge(Graph& g, int u, int v) {
  auto set = [&](int a, int b) {
    std::uint64_t& w = g.adj[static_cast<std::size_t>(a) * g.words + (b >> 6)];
    const std::uint64_t bit = std::uint64_t{1} << (b & 63);
    if (!(w & bit) && a != b) ++g.degree[a];
    w |= bit;
  };
  set(u, v);
  set(v, u);
}

// `extra`: bytes the reader holds besides the graph (the CSV reader's table of names).
void requireVertices(const std::string& path, std::size_t line, std::uint64_t n, std::uint64_t memoryLimit,
                     std::uint64_t extra = 0) {
  if (n > static_cast<std::uint64_t>(kMaxVertices))
    throw InputError(path, line, "more than " + std::to_string(kMaxVertices) + " vertices");
  const std::uint64_t bytes = graphBytes(n);
  requireMemoryAt(path, line, bytes + extra < bytes ? UINT64_MAX : bytes + extra, memoryLimit,
                  "a graph of " + std::to_string(n) + " vertices");
}

Graph readLad(const std::string& path, std::string_view text, std::uint64_t memoryLimit) {
  TextLines lines(text);
  std::string_view line;
  auto nextLine = [&]() {
    while (lines.next(line))
      if (!trim(line).empty()) return true;
    return false;
  };
  if (!nextLine())
    throw InputError(path, lines.number(), "empty file: expected the vertex count on line 1 (LAD format)");
  long long n;
  if (!toInt(trim(line), n) || n < 0 || n > kMaxVertices)
    throw InputError(path, lines.number(),
                     "expected the vertex count (0.." + std::to_string(kMaxVertices) + "), got '" +
                         excerpt(trim(line)) + "' (LAD format)");
  requireVertices(path, lines.number(), static_cast<std::uint64_t>(n), memoryLimit);
  Graph g = withVertices(static_cast<int>(n));
  g.names.reserve(static_cast<std::size_t>(n));
  std::vector<long long> nums;
  for (int i = 0; i < g.n; ++i) {
    g.names.push_back(std::to_string(i));
    if (!nextLine())
      throw InputError(path, lines.number(),
                       "file ends after " + std::to_string(i) + " of " + std::to_string(n) + " vertex lines");
    nums.clear();
    std::size_t at = 0;
    while (at < line.size()) {
      while (at < line.size() && (line[at] == ' ' || line[at] == '\t' || line[at] == '\r')) ++at;
      const std::size_t start = at;
      while (at < line.size() && line[at] != ' ' && line[at] != '\t' && line[at] != '\r') ++at;
      if (at == start) break;
      const std::string_view t = line.substr(start, at - start);
      long long v;
      if (!toInt(t, v)) throw InputError(path, lines.number(), "'" + excerpt(t) + "' is not an integer");
      nums.push_back(v);
    }
    if (nums[0] < 0 || nums[0] != static_cast<long long>(nums.size()) - 1)
      throw InputError(path, lines.number(),
                       "vertex " + std::to_string(i) + ": degree " + std::to_string(nums[0]) + " but " +
                           std::to_string(nums.size() - 1) + " neighbours listed");
    for (std::size_t k = 1; k < nums.size(); ++k) {
      if (nums[k] < 0 || nums[k] >= n)
        throw InputError(path, lines.number(),
                         "neighbour " + std::to_string(nums[k]) + " is not a vertex (0.." + std::to_string(n - 1) + ")");
      addEdge(g, i, static_cast<int>(nums[k]));
    }
  }
  if (nextLine())
    throw InputError(path, lines.number(), "unexpected content after the " + std::to_string(n) + " vertex lines");
  return g;
}

// One 'a,b' / 'a,' line, trimmed and split; throws for anything else.
std::pair<std::string_view, std::string_view> csvEdge(const std::string& path, std::size_t lineNo,
                                                      std::string_view t) {
  const auto comma = t.find(',');
  if (comma == std::string_view::npos)
    throw InputError(path, lineNo, "expected 'a,b' or 'a,', got '" + excerpt(t) + "'");
  const std::string_view a = trim(t.substr(0, comma)), b = trim(t.substr(comma + 1));
  if (a.empty()) throw InputError(path, lineNo, "empty vertex name before the comma");
  if (b.find(',') != std::string_view::npos)
    throw InputError(path, lineNo, "more than two fields in '" + excerpt(t) + "'");
  return {a, b};
}

// Two passes over the text: the first names the vertices (so the matrix is checked against the
// memory limit, then allocated once), the second sets the edges.
Graph readCsv(const std::string& path, std::string_view text, std::uint64_t memoryLimit) {
  std::unordered_map<std::string_view, int> ids;
  std::vector<std::string_view> names;
  std::uint64_t nameBytes = 0;
  auto id = [&](std::string_view name, std::size_t lineNo) {
    auto [it, fresh] = ids.emplace(name, static_cast<int>(names.size()));
    if (fresh) {
      names.push_back(name);
      nameBytes += name.size() + 64;  // the map's node and the name's copy in the graph
      requireVertices(path, lineNo, names.size(), memoryLimit, nameBytes);
    }
    return it->second;
  };
  TextLines lines(text);
  for (std::string_view line; lines.next(line);) {
    const std::string_view t = trim(line);
    if (t.empty()) continue;
    const auto [a, b] = csvEdge(path, lines.number(), t);
    id(a, lines.number());
    if (!b.empty()) id(b, lines.number());
  }
  if (names.empty()) throw InputError(path, lines.number(), "no vertices in the file (CSV edge list)");
  Graph g = withVertices(static_cast<int>(names.size()));
  g.names.assign(names.begin(), names.end());
  TextLines again(text);
  for (std::string_view line; again.next(line);) {
    const std::string_view t = trim(line);
    if (t.empty()) continue;
    const auto [a, b] = csvEdge(path, again.number(), t);
    if (!b.empty()) addEdge(g, ids.at(a), ids.at(b));
  }
  return g;
}

}  // namespace

std::uint64_t graphBytes(std::uint64_t n) {
  const std::uint64_t row = (n + 63) / 64 * 8;
  return saturatingMul(n, row + sizeof(int) + sizeof(std::string));
}

Graph readGraph(const std::string& path, Format format, std::uint64_t memoryLimit) {
  const std::string text = readTextFile(path, memoryLimit, "graph file");
  if (format == Format::Auto)
    format = path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0 ? Format::Csv : Format::Lad;
  return format == Format::Csv ? readCsv(path, text, memoryLimit) : readLad(path, text, memoryLimit);
}

}  // namespace jackdaw::sip
