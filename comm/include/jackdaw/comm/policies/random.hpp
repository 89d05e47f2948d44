// The `random` victim policy, YewPar's biased random (POLICY.md): retry the last rank that gave
// work; otherwise a uniformly random remote rank. A failed steal from the remembered rank forgets
// it. The generator is std::mt19937_64 seeded with seed ^ rank, so runs replay. It counts its
// choices and outcomes like the board-driven policies, so --stats compares them side by side.
#pragma once

#include <random>

#include "jackdaw/comm/policies/policy_support.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

class RandomPolicy final : public VictimPolicy {
 public:
  explicit RandomPolicy(const PolicyContext& ctx);
  const char* name() const override { return "random"; }
  int choose() override;
  void onOutcome(const StealOutcome& o) override;
  nlohmann::json stats() const override;
  int remembered() const noexcept { return last_; }

 private:
  int rank_, size_;
  int last_ = -1;  // the last rank that gave work, or -1
  std::mt19937_64 rng_;
  PolicyCounters counters_;
  std::uint64_t stickyChoices_ = 0, uniformChoices_ = 0;
};

}  // namespace jackdaw::comm
