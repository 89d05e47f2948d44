// A 0/1 knapsack instance as read from a file, items in file order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jackdaw::knapsack {

struct Item {
  double profit = 0;
  double weight = 0;
  long long label = 0;  // 1-based number as the file gives it (Pisinger's i, else the line order)
};

// Profits and weights are doubles: instances_01_KP's f5 has real-valued data, and every integer
// below 2^53 is exact in a double. The readers keep every number within kMaxValue and the sum of
// all profits too, so every profit a search adds up (a node's, an optimum, a bound) is exact for
// whole-number instances and finite for real-valued ones; weights add up to at most the capacity.
// The limit is 2^53 - 1, not 2^53: a written 2^53 + 1 reads as the double 2^53, so only a value
// below 2^53 proves the file's number was read exactly.
inline constexpr double kMaxValue = 9007199254740991.0;  // 2^53 - 1
inline constexpr long long kMaxItems = 100'000'000;
// Memory per item of a run: the instance's Item (24 bytes) and the search space's sorted copies
// (profit, weight, label, two exact integers: 40). Readers check n of these against the limit.
inline constexpr std::uint64_t kBytesPerItem = 64;

struct Instance {
  std::string name;
  double capacity = 0;
  std::vector<Item> items;
  std::optional<double> knownOptimum;  // YewPar line 2, Pisinger z; none for instances_01_KP
};

}  // namespace jackdaw::knapsack
