// The UTS 2.1 sample trees (sample_trees.sh; table in instances/uts/trees.tsv) by name.
//
//   auto t = jackdaw::uts::preset("T1L");   // std::nullopt for an unknown name
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "jackdaw/uts/model.hpp"

namespace jackdaw::uts {

std::optional<TreeParams> preset(const std::string& name);
std::vector<std::string> presetNames();

// One-line description, e.g. "Geometric[fixed] d=10 b=4 r=19".
std::string describe(const TreeParams& t);

}  // namespace jackdaw::uts
