// The `proportional` victim policy: steal from a rank drawn at random with probability
// proportional to its positive performance score ((3.3): max(rate, 0.0001)·queued −
// averageDelay, delays by (3.2) exactly as `performance` computes them).
//
// Why (docs/policies.md names the weakness of `performance`): one cached arg-max target per rank sends
// every thief to the same victim; the first thief drains it and the others are refused, and the
// count they all acted on was already stale. Here:
// - sampling ∝ score spreads thieves: with k thieves a victim expects k·(its share of the
//   weighted queued work), so no rank is mobbed and a rank with twice the work draws twice the
//   thieves; delays and slow ranks still lower a victim's share through the score;
// - sticky (as `random`): the last rank that gave work is asked first — a fresh, direct sign
//   that it has work, better than any board entry; a refusal forgets it;
// - stale guard: a rank that refused us gets weight 0 until its board record changes (it
//   republishes), so we do not re-ask on the very count that just proved stale;
// - nothing has positive weight → uniform over the other ranks (as `random`), never ourselves.
// choose() costs one lock-free read of each candidate's record and one RNG draw (with --board
// sample, the k candidates are first read at their owners): no refresh timer, nothing shared
// between thieves.
//
//   ProportionalPolicy p(env, {});  int v = p.choose();  p.onOutcome({v, false});
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "jackdaw/comm/policies/policy_support.hpp"

namespace jackdaw::comm {

class ProportionalPolicy final : public VictimPolicy {
 public:
  static constexpr const char* name = "proportional";
  static constexpr const char* summary = "a rank drawn with probability proportional to its positive (3.3) score";

  struct Params {
    ScoreParams score{};
    bool sticky = true;      // retry the last rank that gave work first (as `random` does)
    bool staleGuard = true;  // after a refusal, weight 0 for that rank until it republishes
    template <class F>
    void visit(F&& f) {
      score.visit(f);
      f("--prop-sticky", sticky, "proportional: 1 = retry the last rank that gave work first", 0.0, 1.0);
      f("--prop-stale-guard", staleGuard, "proportional: 1 = ignore a rank that refused us until it republishes its load",
        0.0, 1.0);
    }
  };

  ProportionalPolicy(const PolicyEnv& e, const Params& p)
      : p_(p), rank_(e.rank), size_(e.size), rng_(e.seed ^ static_cast<std::uint64_t>(e.rank)), scores_(e, p.score),
        counters_(e.size) {}

  // The sampling weight of rank r from the latest board read (0 for ourselves).
  double weight(int r) const {
    if (r == rank_) return 0.0;
    if (p_.staleGuard && scores_.stale(r)) return 0.0;
    return std::max(0.0, scores_.score(r));
  }

  int choose() override {
    if (size_ < 2) return -1;
    int v = -1;
    if (p_.sticky && last_.rank >= 0) {
      v = last_.rank;
      ++stickyChoices_;
    } else {
      double total = 0.0;
      const std::vector<int>& cand = scores_.readBoard();
      cumulative_.resize(cand.size());
      for (std::size_t i = 0; i < cand.size(); ++i) {
        const int r = cand[i];
        const double w = weight(r);
        if (w == 0.0 && scores_.refused(r) && scores_.score(r) > 0.0) ++guardedSkips_;
        total += w;
        cumulative_[i] = total;
      }
      if (total > 0.0) {
        const double u = std::uniform_real_distribution<double>(0.0, total)(rng_);
        // First candidate whose cumulative weight exceeds u; zero-weight candidates have an empty
        // interval and cannot be hit.
        auto i = static_cast<std::size_t>(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin());
        if (i >= cand.size() || weight(cand[i]) == 0.0) {  // u rounded onto the very end: the last weighted one
          i = cand.size() - 1;
          while (weight(cand[i]) == 0.0) --i;
        }
        v = cand[i];
        ++sampledChoices_;
      } else {
        ++counters_.noTarget;  // nothing looks worth stealing from: uniform, as `random`
        v = uniformOther(rng_, rank_, size_);
      }
    }
    ++counters_.chosen[static_cast<std::size_t>(v)];
    return v;
  }

  std::int64_t onOutcome(const StealOutcome& o) override {
    if (o.victim < 0 || o.victim >= size_) return kOwnBackoff;
    counters_.countOutcome(o.gotWork);
    last_.note(o);
    if (o.gotWork) scores_.noteWork(o.victim);
    else if (p_.staleGuard) scores_.noteRefusal(o.victim);
    return kOwnBackoff;
  }

  void onDelaySample(int peer, double us) override { scores_.onDelaySample(peer, us); }

  nlohmann::json stats() const override {
    auto j = counters_.toJson();
    j["sticky_choices"] = stickyChoices_;
    j["sampled_choices"] = sampledChoices_;
    j["uniform_fallbacks"] = counters_.noTarget;
    j["stale_guard_skips"] = guardedSkips_;
    return j;
  }

  int remembered() const noexcept { return last_.rank; }
  const PolicyCounters& counters() const noexcept { return counters_; }

 private:
  Params p_;
  int rank_, size_;
  std::mt19937_64 rng_;
  PeerScores scores_;
  PolicyCounters counters_;
  LastGiver last_;
  std::vector<double> cumulative_;  // running weight over the candidates of one choice
  std::uint64_t stickyChoices_ = 0, sampledChoices_ = 0, guardedSkips_ = 0;
};

}  // namespace jackdaw::comm
