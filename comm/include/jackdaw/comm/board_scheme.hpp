// How records reach the thieves (board.hpp; docs/architecture.md "The load board"): pushed into
// every rank's window (all) or read at their owners by a thief about to choose (sample). No MPI
// here: jackdaw-sim simulates either scheme by the same name.
#pragma once

#include <stdexcept>
#include <string>

namespace jackdaw::comm {

enum class BoardScheme { All, Sample };

inline const char* boardSchemeName(BoardScheme s) noexcept { return s == BoardScheme::All ? "all" : "sample"; }

// "all" | "sample"; anything else: std::invalid_argument.
inline BoardScheme parseBoardScheme(const std::string& name) {
  if (name == "all") return BoardScheme::All;
  if (name == "sample") return BoardScheme::Sample;
  throw std::invalid_argument("unknown board scheme '" + name + "' (all, sample)");
}

}  // namespace jackdaw::comm
