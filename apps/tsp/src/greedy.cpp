#include "jackdaw/tsp/greedy.hpp"

#include <algorithm>

namespace jackdaw::tsp {

namespace {

std::vector<int> nearestNeighbour(const Instance& inst, int start) {
  const int n = inst.n;
  std::vector<char> used(n, 0);
  std::vector<int> tour{start};
  used[start] = 1;
  for (int k = 1; k < n; ++k) {
    const int last = tour.back();
    int best = -1;
    for (int c = 0; c < n; ++c)
      if (!used[c] && (best < 0 || inst.d(last, c) < inst.d(last, best))) best = c;
    used[best] = 1;
    tour.push_back(best);
  }
  return tour;
}

// Reverse segments while that shortens the tour (first improvement, until a local optimum).
void twoOpt(const Instance& inst, std::vector<int>& t) {
  const int n = static_cast<int>(t.size());
  for (bool improved = true; improved;) {
    improved = false;
    for (int i = 0; i + 2 < n; ++i)
      for (int j = i + 2; j < n; ++j) {
        const int a = t[i], b = t[i + 1], c = t[j], d = t[(j + 1) % n];
        if (a == d) continue;
        if (inst.d(a, c) + inst.d(b, d) < inst.d(a, b) + inst.d(c, d)) {
          std::reverse(t.begin() + i + 1, t.begin() + j + 1);
          improved = true;
        }
      }
  }
}

}  // namespace

std::vector<int> greedyTour(const Instance& inst) {
  const int n = inst.n;
  if (n <= 3) {
    std::vector<int> t(n);
    for (int i = 0; i < n; ++i) t[i] = i;
    return t;
  }
  std::vector<int> best;
  long long bestLen = 0;
  const int starts = std::min(n, 30);  // enough variety; each start costs O(n^2) plus 2-opt passes
  for (int s = 0; s < starts; ++s) {
    auto t = nearestNeighbour(inst, s * n / starts);
    twoOpt(inst, t);
    const long long len = inst.tourLength(t);
    if (best.empty() || len < bestLen) best = std::move(t), bestLen = len;
  }
  std::rotate(best.begin(), std::find(best.begin(), best.end(), 0), best.end());
  return best;
}

}  // namespace jackdaw::tsp
