// A quick good tour, the search's first incumbent: nearest neighbour from several start cities,
// each improved by 2-opt, the best kept. Returns a 0-based tour starting at city 0.
#pragma once

#include <vector>

#include "jackdaw/tsp/instance.hpp"

namespace jackdaw::tsp {

std::vector<int> greedyTour(const Instance& inst);

}  // namespace jackdaw::tsp
