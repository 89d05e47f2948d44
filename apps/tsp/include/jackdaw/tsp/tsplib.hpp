// TSPLIB95 reading: symmetric TSP files and TOUR files, with TSPLIB's own distance functions.
//
//   auto inst = jackdaw::tsp::readTsplib("eil51.tsp");                 // throws InputError(file:line)
//   auto tour = jackdaw::tsp::readTour("eil51.opt.tour", inst.n);      // 0-based permutation
//
// Supported: TYPE TSP; EDGE_WEIGHT_TYPE EUC_2D, CEIL_2D, ATT, GEO, EXPLICIT with EDGE_WEIGHT_FORMAT
// FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW (and the *_COL twins, which list
// the same numbers for a symmetric matrix). DISPLAY_DATA_SECTION is skipped.
//
// Limits (instance.hpp): DIMENSION at most kMaxDimension and within the memory limit (n^2 city pairs
// of kBytesPerCityPair); every weight, read or computed, within kMaxWeight in magnitude: coordinates
// whose distance exceeds it are refused naming the two cities, never rounded into an int overflow.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jackdaw/core/memory_budget.hpp"
#include "jackdaw/tsp/instance.hpp"

namespace jackdaw::tsp {

// The TSPLIB95 distance functions (integer results, rounding exactly as the TSPLIB95 document).
// A distance above kMaxWeight (or not a number) throws InputError.
int distEuc2d(double x1, double y1, double x2, double y2);
int distCeil2d(double x1, double y1, double x2, double y2);
int distAtt(double x1, double y1, double x2, double y2);
int distGeo(double x1, double y1, double x2, double y2);  // x = latitude, y = longitude (DDD.MM)

// `memoryLimit`: bytes (the apps pass --memory-limit); the file and the matrices must fit it.
Instance readTsplib(const std::string& path, std::uint64_t memoryLimit = defaultMemoryLimitBytes());
std::vector<int> readTour(const std::string& path, int n, std::uint64_t memoryLimit = defaultMemoryLimitBytes());

}  // namespace jackdaw::tsp
