// The two searches behind the command line: main.cpp parses the options and reads the graph,
// minimise.cpp and decide.cpp run the model through the app frame, one search kind each. Split so
// that a change of the model (model.hpp) recompiles those two files alone, side by side on two
// cores, and main.cpp (the command-line parser, CLI11) never sees the model.
#pragma once

#include <string>

#include "graph.hpp"
#include "jackdaw/app/context.hpp"

namespace chromatic {

// The chromatic number of g (minimise.cpp), or whether k colours suffice (decide.cpp): each prints
// the answer, writes --stats and returns the exit code (jackdaw::app::finish).
int minimise(jackdaw::app::AppContext& ctx, const std::string& file, const Graph& g);
int decide(jackdaw::app::AppContext& ctx, const std::string& file, const Graph& g, int k);

}  // namespace chromatic
