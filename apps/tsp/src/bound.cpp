// The TSP lower bound and the one-off Held-Karp penalty tuning behind it.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "jackdaw/tsp/model.hpp"

namespace jackdaw::tsp {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Weight of a minimum spanning tree over `verts` under `cost` (Prim, O(k^2) on a dense matrix);
// fills `degree` (indexed like verts) when asked.
double primMst(const std::vector<double>& cost, int n, const std::vector<int>& verts, std::vector<double>& key,
               std::vector<int>& parent, std::vector<int>* degree) {
  const std::size_t k = verts.size();
  if (k <= 1) return 0.0;
  key.assign(k, kInf);
  parent.assign(k, -1);
  thread_local std::vector<char> inTree;
  inTree.assign(k, 0);
  key[0] = 0.0;
  double total = 0.0;
  for (std::size_t step = 0; step < k; ++step) {
    std::size_t u = k;
    double best = kInf;
    for (std::size_t i = 0; i < k; ++i)
      if (!inTree[i] && key[i] < best) best = key[i], u = i;
    inTree[u] = 1;
    total += key[u];
    if (degree && parent[u] >= 0) ++(*degree)[u], ++(*degree)[parent[u]];
    const double* row = &cost[static_cast<std::size_t>(verts[u]) * n];
    for (std::size_t i = 0; i < k; ++i)
      if (!inTree[i] && row[verts[i]] < key[i]) key[i] = row[verts[i]], parent[i] = static_cast<int>(u);
  }
  return total;
}

void setCosts(Space& s) {
  const int n = s.n;
  s.cost.resize(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) s.cost[static_cast<std::size_t>(i) * n + j] = s.d(i, j) + s.pi[i] + s.pi[j];
}

// Held-Karp subgradient ascent on 1-trees rooted at city 0 (MST over the others + 2 edges at 0).
void tunePenalties(Space& s, long long upperBound) {
  const int n = s.n;
  if (n < 4) return;
  std::vector<int> others(n - 1);
  std::iota(others.begin(), others.end(), 1);
  std::vector<double> key, bestPi = s.pi;
  std::vector<int> parent, degree;
  double best = -kInf, lambda = 2.0;
  int sinceBest = 0;
  // O(n^2) per iteration; the iteration count shrinks for big instances to keep setup cheap.
  const int maxIter = std::max(50, std::min(1000, 20000000 / (n * n)));
  for (int iter = 0; iter < maxIter && lambda > 1e-5; ++iter) {
    setCosts(s);
    degree.assign(n - 1, 0);
    double w = primMst(s.cost, n, others, key, parent, &degree);
    // The two cheapest edges at city 0.
    int a = -1, b = -1;
    for (int i = 1; i < n; ++i) {
      const double c = s.cost[i];
      if (a < 0 || c < s.cost[a]) b = a, a = i;
      else if (b < 0 || c < s.cost[b]) b = i;
    }
    w += s.cost[a] + s.cost[b];
    ++degree[a - 1], ++degree[b - 1];
    const double lb = w - 2.0 * std::accumulate(s.pi.begin(), s.pi.end(), 0.0);
    if (lb > best + 1e-9) best = lb, bestPi = s.pi, sinceBest = 0;
    else if (++sinceBest >= 20) lambda /= 2, sinceBest = 0;
    double norm = 0.0;
    for (int v = 1; v < n; ++v) norm += (degree[v - 1] - 2.0) * (degree[v - 1] - 2.0);
    if (norm == 0.0 || upperBound - lb <= 1e-9) break;  // the 1-tree is a tour, or bound meets tour
    const double step = lambda * (static_cast<double>(upperBound) - lb) / norm;
    for (int v = 1; v < n; ++v) s.pi[v] += step * (degree[v - 1] - 2.0);
  }
  s.pi = bestPi;
}

}  // namespace

Space makeSpace(const Instance& inst, long long upperBound) {
  Space s;
  s.n = inst.n;
  s.dist = inst.dist;
  s.nearest.resize(s.n);
  for (int i = 0; i < s.n; ++i) {
    auto& order = s.nearest[i];
    for (int j = 0; j < s.n; ++j)
      if (j != i) order.push_back(j);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s.d(i, a) < s.d(i, b); });
  }
  s.pi.assign(s.n, 0.0);
  tunePenalties(s, upperBound);
  setCosts(s);
  return s;
}

Node rootNode(const Space& s) {
  Node r;
  r.path = {0};
  r.visited.assign((s.n + 63) / 64, 0);
  r.visited[0] = 1;
  if (s.n == 1) r.tour = 0;
  return r;
}

long long lowerBound(const Space& s, const Node& node) {
  if (node.tour != kNoTour) return node.tour;
  const int n = s.n, last = node.path.back();
  thread_local std::vector<int> rest, parent;
  thread_local std::vector<double> key;
  rest.clear();
  double piSum = 0.0;
  for (int c = 0; c < n; ++c)
    if (!node.isVisited(c)) rest.push_back(c), piSum += s.pi[c];
  // Cheapest edges joining the path's two ends (last, and city 0) to the unvisited cities; at the
  // root both ends are city 0 and must use two different edges.
  const double* fromLast = &s.cost[static_cast<std::size_t>(last) * n];
  const double* fromZero = &s.cost[0];
  double l1 = kInf, z1 = kInf, z2 = kInf;
  for (int c : rest) {
    l1 = std::min(l1, fromLast[c]);
    if (fromZero[c] < z1) z2 = z1, z1 = fromZero[c];
    else z2 = std::min(z2, fromZero[c]);
  }
  const double ends = last == 0 && rest.size() > 1 ? z1 + z2 : l1 + z1;
  const double rem = primMst(s.cost, n, rest, key, parent, nullptr) + ends - 2.0 * piSum - s.pi[last] - s.pi[0];
  // Tour lengths are integers: round the bound up (with slack for floating-point noise).
  return node.length + static_cast<long long>(std::ceil(rem - 1e-6));
}

}  // namespace jackdaw::tsp
