// The `performance` victim policy: H. Xie's 2023 Performance-Driven Workstealing Policy, as
// POLICY.md states it (constants in PerformanceParams, flags in policyParamTable()).
//
// - delay per rank by (3.2) from the comm thread's delay samples (µs: timed one-sided reads of the
//   rank's board record and steal round trips);
// - refresh: score (3.3) every other rank from the board (work rate, queued tasks); the arg-max
//   becomes the one cached target of this rank if its score is > 0, otherwise a uniformly random
//   rank does and the refresh counts as "no target";
// - automatic refresh driven by refreshDue()/refresh(): refresh, then wait; the wait starts at
//   waitInitialMs and after each automatic refresh becomes min(wait+60, 240) if it found a
//   target, else max(wait−120, 5);
// - getting work: choose() returns the cached target; on a refusal an auxiliary refresh runs at
//   once and retryDelayUs() = 0 makes the comm thread retry the new target immediately; a second
//   refusal makes retryDelayUs() = backoffMs (the back-off). Auxiliary refreshes do not change
//   the automatic wait (the rule above belongs to the refresh loop).
//
//   PerformancePolicy p(ctx);  p.refresh(now);  int v = p.choose();
#pragma once

#include <random>

#include "jackdaw/comm/policies/policy_support.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

class PerformancePolicy final : public VictimPolicy {
 public:
  explicit PerformancePolicy(const PolicyContext& ctx);
  const char* name() const override { return "performance"; }
  int choose() override;
  void onOutcome(const StealOutcome& o) override;
  void onDelaySample(int peer, double us) override { scores_.onDelaySample(peer, us); }
  bool refreshDue(std::uint64_t nowNs) const override { return size_ > 1 && nowNs >= nextRefreshNs_; }
  void refresh(std::uint64_t nowNs) override;  // the automatic refresh
  std::int64_t retryDelayUs() const override { return retryDelayUs_; }
  nlohmann::json stats() const override;

  // For tests and diagnostics.
  int target() const noexcept { return target_; }
  double waitMs() const noexcept { return waitMs_; }
  std::uint64_t nextRefreshNs() const noexcept { return nextRefreshNs_; }
  const PeerScores& scores() const noexcept { return scores_; }
  const PolicyCounters& counters() const noexcept { return counters_; }

 private:
  bool refreshTarget();  // true = found a target with positive score
  int uniformOther();

  PerformanceParams p_;
  int rank_, size_;
  std::mt19937_64 rng_;
  PeerScores scores_;
  PolicyCounters counters_;
  int target_ = -1;
  double waitMs_;
  std::uint64_t nextRefreshNs_ = 0, firstRefreshNs_ = 0;
  bool refreshed_ = false;
  bool retried_ = false;             // the one retry after an auxiliary refresh is in progress
  std::int64_t retryDelayUs_ = -1;
};

}  // namespace jackdaw::comm
