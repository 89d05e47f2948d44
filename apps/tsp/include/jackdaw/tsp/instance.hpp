// A symmetric TSP instance as the search sees it: n cities and a dense integer distance matrix.
//
//   jackdaw::tsp::Instance inst = jackdaw::tsp::readTsplib("burma14.tsp");
//   long long len = inst.tourLength(tour);   // tour: 0-based city order, closing edge included
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jackdaw::tsp {

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
