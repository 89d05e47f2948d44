// One rank's entry on the load board (board.hpp), as policies read it.
#pragma once

#include <cstdint>

namespace jackdaw::comm {

// A record's 8-byte cells in a board window (board.hpp): what one publish or read moves, and what
// jackdaw-sim charges the network for it.
inline constexpr int kRecordCells = 8;

struct RankRecord {
  std::uint64_t seq = 0;      // even = stable; set by publish()
  double workRate = 1.0;
  std::uint64_t queued = 0;   // tasks a thief could take now (stealableCount: pool beyond own idle workers)
  std::uint64_t running = 0;
  std::uint64_t idle = 0;     // idle workers
  std::uint64_t timeNs = 0;   // publisher's steady clock at publish; set by publish()
  std::uint64_t pooled = 0;   // raw pool size, for statistics (policies score `queued`)
};

}  // namespace jackdaw::comm
