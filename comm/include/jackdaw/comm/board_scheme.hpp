// How records reach the thieves (board.hpp; docs/architecture.md "The load board"): pushed into
// every rank's window (all) or read at their owners by a thief about to choose (sample). No MPI
// here: jackdaw-sim simulates either scheme by the same name.
#pragma once

#include <stdexcept>
#include <string>

namespace jackdaw::comm {

enum class BoardScheme { All, Sample };

inline const char* boardSchemeName(BoardScheme s) noexcept { return s == BoardScheme::All ? "all" : "sample"; }

// What carries the board between ranks (board.hpp): MPI one-sided windows (rma), or messages
// through the comm threads where no one-sided component can serve the job (messages). auto: a
// window if MPI can create one, messages otherwise.
enum class BoardTransport { Auto, Rma, Messages };

inline const char* boardTransportName(BoardTransport t) noexcept {
  return t == BoardTransport::Auto ? "auto" : t == BoardTransport::Rma ? "rma" : "messages";
}

// "all" | "sample"; anything else: std::invalid_argument.
inline BoardScheme parseBoardScheme(const std::string& name) {
  if (name == "all") return BoardScheme::All;
  if (name == "sample") return BoardScheme::Sample;
  throw std::invalid_argument("unknown board scheme '" + name + "' (all, sample)");
}

}  // namespace jackdaw::comm
