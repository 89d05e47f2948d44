#include "jackdaw/comm/policies/performance.hpp"

#include <algorithm>

namespace jackdaw::comm {

PerformancePolicy::PerformancePolicy(const PolicyContext& ctx)
    : p_(ctx.performance), rank_(ctx.rank), size_(ctx.size),
      rng_(ctx.seed ^ static_cast<std::uint64_t>(ctx.rank)), scores_(ctx), counters_(ctx.size),
      waitMs_(ctx.performance.waitInitialMs) {
  // Before the first refresh there is no information: start from a random rank, as a "no
  // target" refresh would.
  if (size_ > 1) target_ = uniformOther();
}

int PerformancePolicy::uniformOther() {
  std::uniform_int_distribution<int> pick(0, size_ - 2);
  const int v = pick(rng_);
  return v >= rank_ ? v + 1 : v;
}

bool PerformancePolicy::refreshTarget() {
  scores_.readBoard();
  int best = -1;
  double bestScore = 0.0;
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    const double s = scores_.score(r);
    if (best < 0 || s > bestScore) best = r, bestScore = s;  // ties: the lowest rank
  }
  if (best >= 0 && bestScore > 0.0) {
    target_ = best;
    return true;
  }
  target_ = uniformOther();
  ++counters_.noTarget;
  return false;
}

void PerformancePolicy::refresh(std::uint64_t nowNs) {
  if (size_ < 2) return;
  if (!refreshed_) {
    refreshed_ = true;
    firstRefreshNs_ = nowNs;
    counters_.recordWait(0.0, waitMs_);
  }
  ++counters_.refreshesAutomatic;
  const bool found = refreshTarget();
  const double before = waitMs_;
  waitMs_ = found ? std::min(waitMs_ + p_.waitStepUpMs, p_.waitMaxMs) : std::max(waitMs_ - p_.waitStepDownMs, p_.waitMinMs);
  if (waitMs_ != before) counters_.recordWait(1e-6 * static_cast<double>(nowNs - firstRefreshNs_), waitMs_);
  nextRefreshNs_ = nowNs + static_cast<std::uint64_t>(waitMs_ * 1e6);
}

int PerformancePolicy::choose() {
  if (size_ < 2) return -1;
  ++counters_.chosen[static_cast<std::size_t>(target_)];
  return target_;
}

void PerformancePolicy::onOutcome(const StealOutcome& o) {
  counters_.countOutcome(o.gotWork);
  if (o.gotWork) {
    retried_ = false;
    retryDelayUs_ = -1;
    return;
  }
  if (!retried_) {
    // First refusal: auxiliary refresh at once, then one immediate retry of the new target.
    ++counters_.refreshesAuxiliary;
    refreshTarget();
    retried_ = true;
    retryDelayUs_ = 0;
  } else {
    // The retry failed too: back off before asking again (the next ask starts a new cycle).
    ++counters_.backoffs;
    retried_ = false;
    retryDelayUs_ = static_cast<std::int64_t>(p_.backoffMs * 1000.0);
  }
}

nlohmann::json PerformancePolicy::stats() const {
  auto j = counters_.toJson();
  j["policy"] = name();
  j["wait_ms_final"] = waitMs_;
  return j;
}

}  // namespace jackdaw::comm
