#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/sip/graph.hpp"

namespace jackdaw::sip {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

bool toInt(const std::string& t, long long& v) {
  char* end = nullptr;
  errno = 0;
  v = std::strtoll(t.c_str(), &end, 10);
  return !t.empty() && *end == '\0' && errno != ERANGE;
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

constexpr long long kMaxVertices = 1 << 22;

Graph readLad(const std::string& path, std::ifstream& in) {
  std::string line;
  std::size_t lineNo = 0;
  auto nextLine = [&]() {
    while (std::getline(in, line)) {
      ++lineNo;
      if (!trim(line).empty()) return true;
    }
    return false;
  };
  if (!nextLine()) throw InputError(path, lineNo, "empty file: expected the vertex count on line 1 (LAD format)");
  long long n;
  if (!toInt(trim(line), n) || n < 0 || n > kMaxVertices)
    throw InputError(path, lineNo, "expected the vertex count, got '" + trim(line) + "' (LAD format)");
  Graph g = withVertices(static_cast<int>(n));
  for (int i = 0; i < g.n; ++i) {
    g.names.push_back(std::to_string(i));
    if (!nextLine())
      throw InputError(path, lineNo, "file ends after " + std::to_string(i) + " of " + std::to_string(n) + " vertex lines");
    std::istringstream tok(line);
    std::vector<long long> nums;
    for (std::string t; tok >> t;) {
      long long v;
      if (!toInt(t, v)) throw InputError(path, lineNo, "'" + t + "' is not an integer");
      nums.push_back(v);
    }
    if (nums[0] < 0 || nums[0] != static_cast<long long>(nums.size()) - 1)
      throw InputError(path, lineNo, "vertex " + std::to_string(i) + ": degree " + std::to_string(nums[0]) +
                                         " but " + std::to_string(nums.size() - 1) + " neighbours listed");
    for (std::size_t k = 1; k < nums.size(); ++k) {
      if (nums[k] < 0 || nums[k] >= n)
        throw InputError(path, lineNo, "neighbour " + std::to_string(nums[k]) + " is not a vertex (0.." +
                                           std::to_string(n - 1) + ")");
      addEdge(g, i, static_cast<int>(nums[k]));
    }
  }
  if (nextLine()) throw InputError(path, lineNo, "unexpected content after the " + std::to_string(n) + " vertex lines");
  return g;
}

Graph readCsv(const std::string& path, std::ifstream& in) {
  std::map<std::string, int> ids;
  std::vector<std::string> names;
  std::vector<std::pair<int, int>> edges;  // second -1: an isolated-vertex declaration
  auto id = [&](const std::string& name) {
    auto [it, fresh] = ids.emplace(name, static_cast<int>(names.size()));
    if (fresh) names.push_back(name);
    return it->second;
  };
  std::string line;
  std::size_t lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    const std::string t = trim(line);
    if (t.empty()) continue;
    const auto comma = t.find(',');
    if (comma == std::string::npos) throw InputError(path, lineNo, "expected 'a,b' or 'a,', got '" + t + "'");
    const std::string a = trim(t.substr(0, comma)), b = trim(t.substr(comma + 1));
    if (a.empty()) throw InputError(path, lineNo, "empty vertex name before the comma");
    if (b.find(',') != std::string::npos) throw InputError(path, lineNo, "more than two fields in '" + t + "'");
    const int u = id(a);
    edges.emplace_back(u, b.empty() ? -1 : id(b));
  }
  if (names.empty()) throw InputError(path, lineNo, "no vertices in the file (CSV edge list)");
  if (static_cast<long long>(names.size()) > kMaxVertices) throw InputError(path, lineNo, "too many vertices");
  Graph g = withVertices(static_cast<int>(names.size()));
  g.names = std::move(names);
  for (auto [u, v] : edges)
    if (v >= 0) addEdge(g, u, v);
  return g;
}

}  // namespace

Graph readGraph(const std::string& path, Format format) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open '" + path + "'");
  if (format == Format::Auto)
    format = path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0 ? Format::Csv : Format::Lad;
  return format == Format::Csv ? readCsv(path, in) : readLad(path, in);
}

}  // namespace jackdaw::sip
