// The `random` victim policy, YewPar's biased random (docs/policies.md): retry the last rank that
// gave work; otherwise a uniformly random remote rank. A failed steal from the remembered rank
// forgets it. The generator is std::mt19937_64 seeded with seed ^ rank, so runs replay. It counts
// its choices and outcomes like the board-driven policies, so --stats compares them side by side.
#pragma once

#include <random>

#include "jackdaw/comm/policies/policy_support.hpp"

namespace jackdaw::comm {

class RandomPolicy final : public VictimPolicy {
 public:
  static constexpr const char* name = "random";
  static constexpr const char* summary = "YewPar's: the last rank that gave work, else uniformly random";

  explicit RandomPolicy(const PolicyEnv& e)
      : rank_(e.rank), size_(e.size), rng_(e.seed ^ static_cast<std::uint64_t>(e.rank)), counters_(e.size) {}

  int choose() override {
    if (size_ < 2) return -1;
    int v = last_.rank;
    if (v >= 0) {
      ++stickyChoices_;
    } else {
      v = uniformOther(rng_, rank_, size_);
      ++uniformChoices_;
    }
    ++counters_.chosen[static_cast<std::size_t>(v)];
    return v;
  }

  std::int64_t onOutcome(const StealOutcome& o) override {
    counters_.countOutcome(o.gotWork);
    last_.note(o);
    return kOwnBackoff;
  }

  nlohmann::json stats() const override {
    auto j = counters_.choiceJson();  // random has no refresh mechanism to report
    j["sticky_choices"] = stickyChoices_;
    j["uniform_choices"] = uniformChoices_;
    return j;
  }

  int remembered() const noexcept { return last_.rank; }

 private:
  int rank_, size_;
  LastGiver last_;
  std::mt19937_64 rng_;
  PolicyCounters counters_;
  std::uint64_t stickyChoices_ = 0, uniformChoices_ = 0;
};

}  // namespace jackdaw::comm
