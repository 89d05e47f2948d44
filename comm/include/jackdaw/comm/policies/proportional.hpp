// The `proportional` victim policy: steal from a rank drawn at random with probability
// proportional to its positive performance score (POLICY.md (3.3): max(rate, 0.0001)·queued −
// averageDelay, delays by (3.2) exactly as `performance` computes them).
//
// Why (POLICY.md names the weakness of `performance`): one cached arg-max target per rank sends
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
// choose() costs one lock-free read of each rank's record and one RNG draw: no MPI call, no
// refresh timer, nothing shared between thieves.
//
//   ProportionalPolicy p(ctx);  int v = p.choose();  p.onOutcome({v, false});
#pragma once

#include <random>
#include <vector>

#include "jackdaw/comm/policies/policy_support.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

class ProportionalPolicy final : public VictimPolicy {
 public:
  explicit ProportionalPolicy(const PolicyContext& ctx);
  const char* name() const override { return "proportional"; }
  int choose() override;
  void onOutcome(const StealOutcome& o) override;
  void onDelaySample(int peer, double us) override { scores_.onDelaySample(peer, us); }
  nlohmann::json stats() const override;

  // The sampling weight of rank r from the latest board read (0 for ourselves); for tests.
  double weight(int r) const;
  int remembered() const noexcept { return last_; }
  const PolicyCounters& counters() const noexcept { return counters_; }

 private:
  ProportionalParams p_;
  int rank_, size_;
  std::mt19937_64 rng_;
  PeerScores scores_;
  PolicyCounters counters_;
  int last_ = -1;
  // staleGuard: board timestamp of the record a refusing rank had when it refused (0 = none)
  std::vector<std::uint64_t> refusedStamp_;
  std::vector<double> cumulative_;
  std::uint64_t stickyChoices_ = 0, sampledChoices_ = 0, guardedSkips_ = 0;
};

}  // namespace jackdaw::comm
