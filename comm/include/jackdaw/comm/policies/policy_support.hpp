// Pieces shared by the board-driven policies: ScoreParams and PeerScores (the delay average (3.2)
// and the score (3.3) over the board, docs/policies.md) and PolicyCounters (the per-policy --stats
// counters). Comm thread only.
//
//   PeerScores s(env, params);  s.onDelaySample(peer, us);
//   for (int r : s.readBoard()) use(s.score(r));   // the candidates the board offers now
#pragma once

#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

// Constants of (3.2) and (3.3); the policies that score victims share these flags.
struct ScoreParams {
  double alpha = 0.65;      // weight of the new sample in (3.2); the old value keeps 1 − alpha
  double logOffset = 2.72;  // the 2.72 inside ln(·) of (3.2)
  double minRate = 0.0001;  // floor on a rank's work rate in (3.3)
  template <class F>
  void visit(F&& f) {
    f("--perf-alpha", alpha, "score: weight of a new delay sample in (3.2) (old keeps 1-alpha)", 0.0, 1.0);
    f("--perf-log-offset", logOffset, "score: constant inside ln() of (3.2)", std::numeric_limits<double>::min(), 1e12);
    f("--perf-min-rate", minRate, "score: floor on a rank's work rate in (3.3)", 0.0, 1e12);
  }
};

// The one smoothing of delay samples: (3.2) per peer, and (3.3) from the last board read.
class PeerScores {
 public:
  PeerScores(const PolicyEnv& env, const ScoreParams& p);
  int size() const noexcept { return static_cast<int>(delay_.size()); }
  // (3.2): averageDelay ← alpha·ln(logOffset + us·workers) + (1 − alpha)·averageDelay
  void onDelaySample(int peer, double us);
  double averageDelay(int peer) const { return delay_[static_cast<std::size_t>(peer)]; }
  // The ranks to score now, as the board's scheme offers them (every other rank, or a sample read
  // at the owners), with their records re-read (a torn read keeps the previous record).
  const std::vector<int>& readBoard();
  const std::vector<int>& candidates() const noexcept { return candidates_.ranks; }
  // True when the last readBoard() read the candidates at their owners (nothing fresher to get).
  bool fresh() const noexcept { return candidates_.fresh; }
  // Read these ranks' records at their owners now (timed one-sided reads), then take them.
  void freshen(std::span<const int> ranks);
  void readOne(int peer);
  const RankRecord& record(int peer) const { return rec_[static_cast<std::size_t>(peer)]; }
  // (3.3) from the last read: max(workRate, minRate)·queued − averageDelay
  double score(int peer) const;

  // The stale guard both board-driven policies use: a rank that refused us is stale until its
  // record changes (the record we would score it on just proved wrong). noteRefusal re-reads its
  // record and remembers its time; work from the rank clears it.
  void noteRefusal(int peer) {
    readOne(peer);
    refusedAt_[static_cast<std::size_t>(peer)] = record(peer).timeNs;  // 0 = never published: nothing to guard
  }
  void noteWork(int peer) { refusedAt_[static_cast<std::size_t>(peer)] = 0; }
  bool refused(int peer) const { return refusedAt_[static_cast<std::size_t>(peer)] != 0; }
  bool stale(int peer) const { return refused(peer) && record(peer).timeNs == refusedAt_[static_cast<std::size_t>(peer)]; }

 private:
  ScoreParams p_;
  int rank_, workers_;
  BoardView* view_;
  Candidates candidates_;
  std::vector<double> delay_;
  std::vector<RankRecord> rec_;  // initial record: rate 1.0, queued 0 (the specification's initial NodeInfo)
  std::vector<std::uint64_t> refusedAt_;  // per rank: its record's time when it refused us (0: none)
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

// YewPar's stickiness, which random, proportional and twochoice share: the rank that last gave us
// work is asked first; a refusal from it forgets it.
struct LastGiver {
  int rank = -1;
  void note(const StealOutcome& o) {
    if (o.gotWork) rank = o.victim;
    else if (o.victim == rank) rank = -1;
  }
};

// A uniformly random rank other than `self` (size >= 2).
template <class Rng>
int uniformOther(Rng& rng, int self, int size) {
  std::uniform_int_distribution<int> pick(0, size - 2);
  const int v = pick(rng);
  return v >= self ? v + 1 : v;
}

}  // namespace jackdaw::comm
