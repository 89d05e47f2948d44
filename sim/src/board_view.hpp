#pragma once

#include <map>
#include <optional>
#include <random>
#include <span>

#include "jackdaw/comm/policies/board_view.hpp"
#include "job.hpp"

namespace jackdaw::sim::detail {

// The board as a policy on rank `self` reads it.
// The sampling (and its seed) is the runtime's: comm::SamplingBoardView.
class SimBoardView final : public comm::SamplingBoardView {
 public:
  SimBoardView(Job& job, Rank& self)
      : comm::SamplingBoardView(job.cfg.steal.boardSample, job.cfg.steal.seed, self.id), job_(job), self_(self) {}
  std::optional<comm::RankRecord> read(int r) const override {
    if (job_.pushes()) return job_.board->pushed(r);
    return fetched_.count(r) ? std::optional(fetched_.at(r)) : std::nullopt;
  }
  bool samples() const override { return !job_.pushes(); }
  // One-sided reads at the owners: three dependent phases of gets, each a round trip (board.cpp).
  void refresh(std::span<const int> ranks) override {
    if (ranks.empty()) return;
    double rtt = 0;
    for (int r : ranks) rtt = std::max(rtt, 2 * job_.oneWayS(self_, *job_.ranks[static_cast<std::size_t>(r)], kRecordBytes));
    const double t0 = nowS();
    sg4::this_actor::sleep_for(3 * rtt);
    for (int r : ranks)
      if (auto rec = job_.board->atOwner(r)) fetched_[r] = *rec;
    ++self_.stats.boardFetches;
    self_.stats.fetchedRecords += ranks.size();
    self_.stats.fetchUsTotal += 1e6 * (nowS() - t0);
    self_.boardMessages += 6 * ranks.size();
    self_.boardBytes += static_cast<std::uint64_t>(ranks.size() * (kRecordBytes + 16) + 6 * ranks.size() * 8);
  }

 private:
  Job& job_;
  Rank& self_;
  std::map<int, comm::RankRecord> fetched_;
};

}  // namespace jackdaw::sim::detail
