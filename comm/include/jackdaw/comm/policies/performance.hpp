// The `performance` victim policy: H. Xie's 2023 Performance-Driven Workstealing Policy, as
// docs/policies.md states it.
//
// - delay per rank by (3.2) from the comm thread's delay samples (µs: timed one-sided reads of the
//   rank's board record and steal round trips);
// - refresh: score (3.3) every other rank from the board (work rate, queued tasks); the arg-max
//   becomes the one cached target of this rank if its score is > 0, otherwise a uniformly random
//   rank does and the refresh counts as "no target";
// - automatic refresh: refresh, then wait; the wait starts at waitInitialMs and after each
//   automatic refresh becomes min(wait+60, 240) if it found a target, else max(wait−120, 5);
// - getting work: choose() returns the cached target; on a refusal an auxiliary refresh runs at
//   once and the retry is immediate; a second refusal backs off for backoffMs. Auxiliary
//   refreshes do not change the automatic wait (the rule above belongs to the refresh loop).
// - Jackdaw's reading of "query every rank afresh": a rank that refused us is left out of every
//   refresh until it has republished its record (the record we would score it on is the one that
//   just proved stale); the auxiliary refresh re-reads the best two candidates at their owners
//   (timed one-sided reads) unless the board's scheme just read them there; and the one retry
//   belongs to a hunger episode, so it restarts with each.
// - The candidates are the ones the board's scheme offers (every other rank, or a sample).
//
//   PerformancePolicy p(env, {});  p.refresh(now);  int v = p.choose();
#pragma once

#include <algorithm>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "jackdaw/comm/policies/policy_support.hpp"

namespace jackdaw::comm {

class PerformancePolicy final : public VictimPolicy {
 public:
  static constexpr const char* name = "performance";
  static constexpr const char* summary = "Xie 2023: the rank with the best (3.3) score, refreshed on a self-tuning timer";

  struct Params {
    ScoreParams score{};
    double waitInitialMs = 1;     // automatic refresh interval before the first adjustment
    double waitStepUpMs = 60;     // after a refresh that found a target: wait + step, capped
    double waitMaxMs = 240;
    double waitStepDownMs = 120;  // after a "no target" refresh: wait − step, floored
    double waitMinMs = 5;
    // The specification says "back off (sleep)" after the retry fails but gives no length; 1 ms is
    // Jackdaw's choice (the comm thread's own refusal back-off also tops out at 1 ms).
    double backoffMs = 1;
    template <class F>
    void visit(F&& f) {
      constexpr double kMax = 1e9;  // ms: about eleven days, past any run
      score.visit(f);
      f("--perf-wait-initial-ms", waitInitialMs, "performance: initial automatic refresh interval (ms)", 0.0, kMax);
      f("--perf-wait-step-up-ms", waitStepUpMs, "performance: interval increase after a refresh that found a target (ms)", 0.0, kMax);
      f("--perf-wait-max-ms", waitMaxMs, "performance: longest refresh interval (ms)", 0.0, kMax);
      f("--perf-wait-step-down-ms", waitStepDownMs, "performance: interval decrease after a no-target refresh (ms)", 0.0, kMax);
      f("--perf-wait-min-ms", waitMinMs, "performance: shortest refresh interval (ms)", 0.0, kMax);
      f("--perf-backoff-ms", backoffMs, "performance: back-off after the retry following an auxiliary refresh fails (ms)", 0.0, kMax);
    }
  };

  PerformancePolicy(const PolicyEnv& e, const Params& p)
      : p_(p), rank_(e.rank), size_(e.size), rng_(e.seed ^ static_cast<std::uint64_t>(e.rank)), scores_(e, p.score),
        counters_(e.size), waitMs_(p.waitInitialMs) {
    // Before the first refresh there is no information: start from a random rank, as a "no
    // target" refresh would.
    if (size_ > 1) target_ = uniformOther(rng_, rank_, size_);
  }

  int choose() override {
    if (size_ < 2) return -1;
    ++counters_.chosen[static_cast<std::size_t>(target_)];
    return target_;
  }

  std::int64_t onOutcome(const StealOutcome& o) override {
    counters_.countOutcome(o.gotWork);
    if (o.victim >= 0 && o.victim < size_) {
      if (o.gotWork) scores_.noteWork(o.victim);
      else scores_.noteRefusal(o.victim);
    }
    if (o.gotWork) {
      retried_ = false;
      return kOwnBackoff;
    }
    if (!retried_) {
      // First refusal: auxiliary refresh at once, then one immediate retry of the new target.
      ++counters_.refreshesAuxiliary;
      refreshTarget(true);
      retried_ = true;
      return 0;
    }
    // The retry failed too: back off before asking again (the next ask starts a new cycle).
    ++counters_.backoffs;
    retried_ = false;
    return static_cast<std::int64_t>(p_.backoffMs * 1000.0);
  }

  void onDelaySample(int peer, double us) override { scores_.onDelaySample(peer, us); }

  // A new hunger episode: a refusal now is the episode's first, answered with the auxiliary
  // refresh and one retry, whatever happened in the last episode.
  void onHungry() override { retried_ = false; }

  // True while `r` refused us and has not republished since.
  bool guarded(int r) const { return scores_.stale(r); }

  // The automatic refresh.
  std::uint64_t refresh(std::uint64_t nowNs) override {
    if (size_ < 2) return kNever;
    if (!refreshed_) {
      refreshed_ = true;
      firstRefreshNs_ = nowNs;
      counters_.recordWait(0.0, waitMs_);
    }
    ++counters_.refreshesAutomatic;
    const bool found = refreshTarget(false);
    const double before = waitMs_;
    waitMs_ = found ? std::min(waitMs_ + p_.waitStepUpMs, p_.waitMaxMs)
                    : std::max(waitMs_ - p_.waitStepDownMs, p_.waitMinMs);
    if (waitMs_ != before) counters_.recordWait(1e-6 * static_cast<double>(nowNs - firstRefreshNs_), waitMs_);
    return nowNs + static_cast<std::uint64_t>(waitMs_ * 1e6);
  }

  nlohmann::json stats() const override {
    auto j = counters_.toJson();
    j["wait_ms_final"] = waitMs_;
    j["guarded_skips"] = guardedSkips_;
    j["fresh_reads"] = freshReads_;
    return j;
  }

  // For tests and diagnostics.
  int target() const noexcept { return target_; }
  double waitMs() const noexcept { return waitMs_; }
  const PeerScores& scores() const noexcept { return scores_; }
  const PolicyCounters& counters() const noexcept { return counters_; }

 private:
  // true = found a target with positive score. The auxiliary refresh (after a refusal) is the
  // specification's "query every rank afresh": when the board's records came from pushes, the best
  // kFreshReads candidates by them are read again at their owners and the choice is made on those.
  static constexpr std::size_t kFreshReads = 2;
  bool refreshTarget(bool auxiliary) {
    std::vector<std::pair<double, int>> ranked;  // (score, rank) of the unguarded candidates
    for (int r : scores_.readBoard()) {
      if (guarded(r)) {
        ++guardedSkips_;
        continue;
      }
      ranked.emplace_back(scores_.score(r), r);
    }
    // Best first; ties: the lowest rank. Only the best kFreshReads are ever looked at.
    const auto best = [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); };
    const auto top = ranked.begin() + static_cast<std::ptrdiff_t>(std::min(kFreshReads, ranked.size()));
    std::partial_sort(ranked.begin(), top, ranked.end(), best);
    if (auxiliary && !scores_.fresh() && !ranked.empty() && ranked.front().first > 0.0) {
      std::vector<int> again;
      for (auto it = ranked.begin(); it != top && it->first > 0.0; ++it) again.push_back(it->second);
      scores_.freshen(again);
      freshReads_ += again.size();
      ranked.clear();
      for (int r : again) ranked.emplace_back(scores_.score(r), r);
      std::sort(ranked.begin(), ranked.end(), best);
    }
    if (!ranked.empty() && ranked.front().first > 0.0) {
      target_ = ranked.front().second;
      return true;
    }
    target_ = uniformOther(rng_, rank_, size_);
    ++counters_.noTarget;
    return false;
  }

  Params p_;
  int rank_, size_;
  std::mt19937_64 rng_;
  PeerScores scores_;
  PolicyCounters counters_;
  std::uint64_t guardedSkips_ = 0, freshReads_ = 0;
  int target_ = -1;
  double waitMs_;
  std::uint64_t firstRefreshNs_ = 0;
  bool refreshed_ = false;
  bool retried_ = false;  // the one retry after an auxiliary refresh is in progress
};

}  // namespace jackdaw::comm
