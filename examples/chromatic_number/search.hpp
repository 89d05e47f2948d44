// The search behind the command line: main.cpp parses the options and reads the graph, search.cpp
// runs the model through the app frame. Split so that a change of the model (model.hpp) recompiles
// search.cpp alone, and main.cpp (the command-line parser, CLI11) never sees the model.
#pragma once

#include <optional>
#include <string>

#include "graph.hpp"
#include "jackdaw/app/context.hpp"

namespace chromatic {

// The chromatic number of g, or with k whether k colours suffice: prints the answer, writes
// --stats and returns the exit code (jackdaw::app::finish).
int solve(jackdaw::app::AppContext& ctx, const std::string& file, const Graph& g, std::optional<int> k);

}  // namespace chromatic
