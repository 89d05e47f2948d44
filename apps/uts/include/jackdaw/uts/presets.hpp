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

// The tree's expected number of nodes, from its parameters alone (each level's expected size is
// the previous one's times the mean child count, with the cap of kMaxNumChildren). Infinity when
// the expectation diverges: a binomial part with q * m >= 1, or a geometric mean that never falls
// below 1 (shape expdec with b0 <= 1).
double expectedNodes(const TreeParams& t);

// Whether `t` is exactly one of the sample trees.
bool isPreset(const TreeParams& t);

// Throws InputError, explaining which parameters are at fault, for a tree that cannot end (every
// binomial node has children; a geometric mean that never falls below 1) or whose expected size is
// finite but beyond 2^63 nodes. Returns a warning (empty: none) for a tree whose expected size is
// infinite only because a binomial part is critical or supercritical (q * m >= 1, q < 1): the tree
// of one seed is often finite (the UTS papers' stress trees), so it is counted, and the depth limit
// of Tree::maxHeight stops one that is not. The sample trees are exempt: each is one realisation
// whose size UTS published.
std::string checkCountable(const TreeParams& t);

}  // namespace jackdaw::uts
