// A 0/1 knapsack instance as read from a file, items in file order.
#pragma once

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
// below 2^53 is exact in a double, so integer instances lose nothing (their sums are exact).
struct Instance {
  std::string name;
  double capacity = 0;
  std::vector<Item> items;
  std::optional<double> knownOptimum;  // YewPar line 2, Pisinger z; none for instances_01_KP
};

}  // namespace jackdaw::knapsack
