// A BoardView with plain numbers, so policies are tested without MPI. set() bumps the record's
// timestamp as a real publish would; setAtOwner() changes only the owner's copy (not yet pushed),
// which refresh() — a read at the owner — brings in. With sample(k) it offers k candidates in
// rotation, read at their owners, as the sampling board does.
#pragma once

#include <span>
#include <vector>

#include "jackdaw/comm/policies/board_view.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm::testing {

class FakeBoard final : public BoardView {
 public:
  explicit FakeBoard(int size) : recs_(static_cast<std::size_t>(size)), owner_(recs_) {}
  std::optional<RankRecord> read(int r) const override { return recs_[static_cast<std::size_t>(r)]; }
  void set(int r, double rate, std::uint64_t queued) {
    setAtOwner(r, rate, queued);
    recs_[static_cast<std::size_t>(r)] = owner_[static_cast<std::size_t>(r)];
  }
  void setAtOwner(int r, double rate, std::uint64_t queued) {
    auto& x = owner_[static_cast<std::size_t>(r)];
    x.workRate = rate;
    x.queued = queued;
    x.timeNs = ++clock_;
    x.seq += 2;
  }
  void sample(int k) { sample_ = k; }
  bool samples() const override { return sample_ > 0; }
  Candidates candidates(int self, int size) override {
    Candidates c = everyOtherRank(self, size);
    if (sample_ == 0) return c;
    Candidates s;
    for (int i = 0; i < sample_ && i < static_cast<int>(c.ranks.size()); ++i)
      s.ranks.push_back(c.ranks[(next_ + static_cast<std::size_t>(i)) % c.ranks.size()]);
    next_ += static_cast<std::size_t>(sample_);
    refresh(s.ranks);
    s.fresh = true;
    return s;
  }
  void refresh(std::span<const int> ranks) override {
    for (int r : ranks) {
      recs_[static_cast<std::size_t>(r)] = owner_[static_cast<std::size_t>(r)];
      refreshed.push_back(r);
    }
  }
  std::vector<int> refreshed;  // every rank read at its owner, in order

 private:
  std::vector<RankRecord> recs_, owner_;
  std::uint64_t clock_ = 0;
  int sample_ = 0;
  std::size_t next_ = 0;
};

inline PolicyEnv ctxFor(int rank, int size, FakeBoard& b, int workers = 1, std::uint64_t seed = 7) {
  PolicyEnv c;
  c.rank = rank;
  c.size = size;
  c.seed = seed;
  c.workers = workers;
  c.board = &b;
  return c;
}

}  // namespace jackdaw::comm::testing
