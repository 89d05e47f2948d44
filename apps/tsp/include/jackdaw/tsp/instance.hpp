// A symmetric TSP instance as the search sees it: n cities and a dense integer distance matrix.
//
//   jackdaw::tsp::Instance inst = jackdaw::tsp::readTsplib("burma14.tsp");
//   long long len = inst.tourLength(tour);   // tour: 0-based city order, closing edge included
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jackdaw::tsp {

// Weights (read or computed from coordinates) lie in [-kMaxWeight - 1, kMaxWeight], so that the sum of
// two fits an int (2-opt compares such sums) and a tour of kMaxDimension cities fits a long long
// with room to spare (the objective and the bound).
inline constexpr std::int32_t kMaxWeight = INT32_MAX / 4;  // 536870911
inline constexpr int kMaxDimension = 20000;                // city ids are uint16 on a search path

// Memory per city pair of a run: the instance's matrix (4 bytes), the search space's copy (4), its
// Held-Karp costs (8) and nearest-neighbour orders (4). Readers check n * n of these against the
// memory limit before allocating.
inline constexpr std::uint64_t kBytesPerCityPair = 20;

struct Instance {
  std::string name;
  int n = 0;
  std::vector<std::int32_t> dist;  // row-major n x n, symmetric, zero diagonal not required

  std::int32_t d(int i, int j) const { return dist[static_cast<std::size_t>(i) * n + j]; }

  // Length of the closed tour visiting `tour` in order (back to tour[0] at the end).
  long long tourLength(const std::vector<int>& tour) const {
    long long len = 0;
    for (std::size_t k = 0; k < tour.size(); ++k) len += d(tour[k], tour[(k + 1) % tour.size()]);
    return len;
  }
};

}  // namespace jackdaw::tsp
