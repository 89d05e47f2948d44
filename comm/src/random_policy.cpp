#include "jackdaw/comm/policies/random.hpp"

namespace jackdaw::comm {

RandomPolicy::RandomPolicy(const PolicyContext& ctx)
    : rank_(ctx.rank), size_(ctx.size), rng_(ctx.seed ^ static_cast<std::uint64_t>(ctx.rank)) {}

int RandomPolicy::choose() {
  if (size_ < 2) return -1;
  if (last_ >= 0) return last_;
  // Uniform over the size-1 remote ranks: draw from [0, size-2] and skip over ourselves.
  std::uniform_int_distribution<int> pick(0, size_ - 2);
  const int v = pick(rng_);
  return v >= rank_ ? v + 1 : v;
}

void RandomPolicy::onOutcome(const StealOutcome& o) {
  if (o.gotWork) last_ = o.victim;
  else if (o.victim == last_) last_ = -1;
}

}  // namespace jackdaw::comm
