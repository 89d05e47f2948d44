#include "jackdaw/comm/policies/random.hpp"

namespace jackdaw::comm {

RandomPolicy::RandomPolicy(const PolicyContext& ctx)
    : rank_(ctx.rank), size_(ctx.size), rng_(ctx.seed ^ static_cast<std::uint64_t>(ctx.rank)),
      counters_(ctx.size) {}

int RandomPolicy::choose() {
  if (size_ < 2) return -1;
  int v = last_;
  if (v >= 0) {
    ++stickyChoices_;
  } else {
    // Uniform over the size-1 remote ranks: draw from [0, size-2] and skip over ourselves.
    std::uniform_int_distribution<int> pick(0, size_ - 2);
    v = pick(rng_);
    if (v >= rank_) ++v;
    ++uniformChoices_;
  }
  ++counters_.chosen[static_cast<std::size_t>(v)];
  return v;
}

void RandomPolicy::onOutcome(const StealOutcome& o) {
  counters_.countOutcome(o.gotWork);
  if (o.gotWork) last_ = o.victim;
  else if (o.victim == last_) last_ = -1;
}

nlohmann::json RandomPolicy::stats() const {
  auto j = counters_.choiceJson();  // random has no refresh mechanism to report
  j["policy"] = name();
  j["sticky_choices"] = stickyChoices_;
  j["uniform_choices"] = uniformChoices_;
  return j;
}

}  // namespace jackdaw::comm
