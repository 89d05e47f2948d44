// The `random` victim policy, YewPar's biased random (POLICY.md): retry the last rank that gave
// work; otherwise a uniformly random remote rank. A failed steal from the remembered rank forgets
// it. The generator is std::mt19937_64 seeded with seed ^ rank, so runs replay.
#pragma once

#include <random>

#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

class RandomPolicy final : public VictimPolicy {
 public:
  explicit RandomPolicy(const PolicyContext& ctx);
  const char* name() const override { return "random"; }
  int choose() override;
  void onOutcome(const StealOutcome& o) override;
  int remembered() const noexcept { return last_; }

 private:
  int rank_, size_;
  int last_ = -1;  // the last rank that gave work, or -1
  std::mt19937_64 rng_;
};

}  // namespace jackdaw::comm
