// A BoardView with plain numbers, so policies are tested without MPI. set() bumps the record's
// timestamp as a real publish would.
#pragma once

#include <vector>

#include "jackdaw/comm/policies/board_view.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm::testing {

class FakeBoard final : public BoardView {
 public:
  explicit FakeBoard(int size) : recs_(static_cast<std::size_t>(size)) {}
  std::optional<RankRecord> read(int r) const override { return recs_[static_cast<std::size_t>(r)]; }
  void set(int r, double rate, std::uint64_t queued) {
    auto& x = recs_[static_cast<std::size_t>(r)];
    x.workRate = rate;
    x.queued = queued;
    x.timeNs = ++clock_;
    x.seq += 2;
  }

 private:
  std::vector<RankRecord> recs_;
  std::uint64_t clock_ = 0;
};

inline PolicyEnv ctxFor(int rank, int size, const FakeBoard& b, int workers = 1, std::uint64_t seed = 7) {
  PolicyEnv c;
  c.rank = rank;
  c.size = size;
  c.seed = seed;
  c.workers = workers;
  c.board = &b;
  return c;
}

}  // namespace jackdaw::comm::testing
