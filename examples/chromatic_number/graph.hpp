// A DIMACS graph as the example reads it, and its reader. Apart from the model so that changing
// one does not recompile the other.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace chromatic {

inline constexpr int kMaxVertices = 64;  // the model's vertex sets are one machine word (model.hpp)

struct Graph {
  int n = 0;                                // vertices 0 .. n-1 (the file numbers them from 1)
  std::vector<std::pair<int, int>> edges;   // distinct, u < v
};

// Reads "p edge N M" (or "p col N M"), then "e U V" lines; "c" lines are comments. Anything else,
// a vertex out of range, a loop or more than `maxVertices` vertices throws jackdaw::InputError
// naming file and line: the app frame prints "app: error: FILE:LINE: ..." and exits 2. The file is
// opened with jackdaw::readTextFile, which refuses a FIFO, a device or a folder (exit 2) instead of
// waiting on it, and a file larger than `memoryLimit` (the app passes --memory-limit).
Graph readDimacs(const std::string& path, int maxVertices, std::uint64_t memoryLimit);

}  // namespace chromatic
