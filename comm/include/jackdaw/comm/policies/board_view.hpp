// The read-only slice of the load board a victim policy needs. LoadBoardView adapts the real
// LoadBoard (lock-free local reads, no MPI call); tests implement BoardView with plain numbers so
// policies can be checked without mpirun.
//
//   LoadBoardView view(board);  if (auto r = view.read(peer)) use(r->queued);
#pragma once

#include <optional>

#include "jackdaw/comm/board_record.hpp"

namespace jackdaw::comm {

class BoardView {
 public:
  virtual ~BoardView() = default;
  // rank r's latest consistent record, or nullopt (being rewritten: keep the previous value)
  virtual std::optional<RankRecord> read(int r) const = 0;
};

}  // namespace jackdaw::comm
