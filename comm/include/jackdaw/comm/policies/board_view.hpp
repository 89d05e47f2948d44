// The read-only slice of the load board a victim policy needs. LoadBoardView adapts the real
// LoadBoard (lock-free local reads, no MPI call); tests implement BoardView with plain numbers so
// policies can be checked without mpirun.
//
//   LoadBoardView view(board);  if (auto r = view.read(peer)) use(r->queued);
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "jackdaw/comm/board_record.hpp"

namespace jackdaw::comm {

// The ranks a policy should score now, and whether their records were just read at the owners.
struct Candidates {
  std::vector<int> ranks;
  bool fresh = false;
};

inline Candidates everyOtherRank(int self, int size) {
  Candidates c;
  for (int r = 0; r < size; ++r)
    if (r != self) c.ranks.push_back(r);
  return c;
}

// The sampled board's choice: k distinct ranks other than `self`, uniformly (a partial
// Fisher–Yates). The runtime's LoadBoardView and jackdaw-sim's board both draw this way
// (SamplingBoardView, below).
inline Candidates sampleOtherRanks(int self, int size, int k, std::mt19937_64& rng) {
  Candidates c = everyOtherRank(self, size);
  const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(std::max(1, k)), c.ranks.size());
  for (std::size_t i = 0; i < n; ++i) {
    std::uniform_int_distribution<std::size_t> pick(i, c.ranks.size() - 1);
    std::swap(c.ranks[i], c.ranks[pick(rng)]);
  }
  c.ranks.resize(n);
  return c;
}

class BoardView {
 public:
  virtual ~BoardView() = default;
  // rank r's latest consistent record, or nullopt (being rewritten: keep the previous value)
  virtual std::optional<RankRecord> read(int r) const = 0;
  // The ranks to score now, their records made current. This default (and the push board): every
  // rank but `self`, as the local board has them. A sampling board reads k of them at their owners.
  virtual Candidates candidates(int self, int size) { return everyOtherRank(self, size); }
  // True when candidates() draws a sample read at the owners (scheme sample), false when it offers
  // every other rank from the local board (the default, the push board).
  virtual bool samples() const { return false; }
  // Re-read these ranks' records at their owners now (a timed one-sided read); read() then returns
  // them. The default has no owners to ask.
  virtual void refresh(std::span<const int> /*ranks*/) {}
};

// The seed of rank `rank`'s board sample under `--seed seed`, apart from the policy's own stream.
inline std::uint64_t boardSampleSeed(std::uint64_t seed, int rank) {
  return (seed ^ 0x5bd1e995ULL) * static_cast<std::uint64_t>(rank + 1);
}

// A board that may sample, written once for the runtime (LoadBoardView) and jackdaw-sim
// (SimBoardView), so one --seed draws the same ranks in both: while samples() is false (the push
// board) every other rank, else `sample` of them from this rank's stream, read at their owners.
class SamplingBoardView : public BoardView {
 public:
  SamplingBoardView(int sample, std::uint64_t seed, int rank) : sample_(sample), rng_(boardSampleSeed(seed, rank)) {}
  Candidates candidates(int self, int size) final {
    if (!samples()) return everyOtherRank(self, size);
    Candidates c = sampleOtherRanks(self, size, sample_, rng_);
    refresh(c.ranks);
    c.fresh = true;
    return c;
  }

 private:
  int sample_;
  std::mt19937_64 rng_;
};

}  // namespace jackdaw::comm
