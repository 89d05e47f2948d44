// Pieces shared by the board-driven policies: PeerScores (POLICY.md (3.2) delays and (3.3)
// scores over the board) and PolicyCounters (the per-policy --stats JSON). Comm thread only.
//
//   PeerScores s(ctx);  s.onDelaySample(peer, us);  s.readBoard();  double sc = s.score(peer);
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/comm/policies/board_view.hpp"
#include "jackdaw/comm/policies/params.hpp"

namespace jackdaw::comm {

struct PolicyContext;

class PeerScores {
 public:
  explicit PeerScores(const PolicyContext& ctx);
  int size() const noexcept { return static_cast<int>(delay_.size()); }
  // (3.2): averageDelay ← alpha·ln(logOffset + us·workers) + (1 − alpha)·averageDelay
  void onDelaySample(int peer, double us);
  double averageDelay(int peer) const { return delay_[peer]; }
  // Re-read every rank's record from the board (a torn read keeps the previous record).
  void readBoard();
  void readOne(int peer);
  const RankRecord& record(int peer) const { return rec_[peer]; }
  // (3.3) from the last read: max(workRate, minRate)·queued − averageDelay
  double score(int peer) const;

 private:
  PerformanceParams p_;
  int workers_;
  std::unique_ptr<BoardView> own_;  // adapter over ctx.board when no view was given
  const BoardView* view_ = nullptr;
  std::vector<double> delay_;
  std::vector<RankRecord> rec_;  // initial record: rate 1.0, queued 0 (POLICY.md's initial NodeInfo)
};

// Counters a policy reports under --stats. choiceJson() keys (every policy): steals_tried,
// steals_succeeded, steals_failed, targets_chosen[rank]; toJson() adds the refresh mechanism's:
//   refreshes_automatic, refreshes_auxiliary, no_target_refreshes, backoffs,
//   wait_ms_series [[t_ms, wait_ms], …] (capped), wait_series_dropped.
struct PolicyCounters {
  static constexpr std::size_t kMaxSeries = 256;
  std::uint64_t refreshesAutomatic = 0, refreshesAuxiliary = 0, noTarget = 0;
  std::uint64_t tried = 0, succeeded = 0, failed = 0, backoffs = 0;
  std::vector<std::uint64_t> chosen;
  std::vector<std::pair<double, double>> waitSeries;
  std::uint64_t waitSeriesDropped = 0;

  explicit PolicyCounters(int size) : chosen(static_cast<std::size_t>(size), 0) {}
  void recordWait(double tMs, double waitMs);
  void countOutcome(bool gotWork) { ++tried; ++(gotWork ? succeeded : failed); }
  nlohmann::json choiceJson() const;
  nlohmann::json toJson() const;
};

}  // namespace jackdaw::comm
