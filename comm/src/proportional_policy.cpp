#include "jackdaw/comm/policies/proportional.hpp"

#include <algorithm>

namespace jackdaw::comm {

ProportionalPolicy::ProportionalPolicy(const PolicyContext& ctx)
    : p_(ctx.proportional), rank_(ctx.rank), size_(ctx.size),
      rng_(ctx.seed ^ static_cast<std::uint64_t>(ctx.rank)), scores_(ctx), counters_(ctx.size),
      refusedStamp_(static_cast<std::size_t>(ctx.size), 0), cumulative_(static_cast<std::size_t>(ctx.size), 0.0) {}

double ProportionalPolicy::weight(int r) const {
  if (r == rank_) return 0.0;
  const std::uint64_t stamp = refusedStamp_[static_cast<std::size_t>(r)];
  if (p_.staleGuard && stamp != 0 && scores_.record(r).timeNs == stamp) return 0.0;
  return std::max(0.0, scores_.score(r));
}

int ProportionalPolicy::choose() {
  if (size_ < 2) return -1;
  int v = -1;
  if (p_.sticky && last_ >= 0) {
    v = last_;
    ++stickyChoices_;
  } else {
    double total = 0.0;
    for (int r = 0; r < size_; ++r) {
      if (r != rank_) scores_.readOne(r);
      const double w = weight(r);
      if (w == 0.0 && r != rank_ && refusedStamp_[static_cast<std::size_t>(r)] != 0 && scores_.score(r) > 0.0)
        ++guardedSkips_;
      total += w;
      cumulative_[static_cast<std::size_t>(r)] = total;
    }
    if (total > 0.0) {
      const double u = std::uniform_real_distribution<double>(0.0, total)(rng_);
      // First rank whose cumulative weight exceeds u; zero-weight ranks (ourselves included)
      // have an empty interval and cannot be hit.
      v = static_cast<int>(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin());
      if (v >= size_ || weight(v) == 0.0) {  // u rounded onto the very end: take the last weighted rank
        v = size_ - 1;
        while (weight(v) == 0.0) --v;
      }
      ++sampledChoices_;
    } else {
      ++counters_.noTarget;  // nothing looks worth stealing from: uniform, as `random`
      const int x = std::uniform_int_distribution<int>(0, size_ - 2)(rng_);
      v = x >= rank_ ? x + 1 : x;
    }
  }
  ++counters_.chosen[static_cast<std::size_t>(v)];
  return v;
}

void ProportionalPolicy::onOutcome(const StealOutcome& o) {
  if (o.victim < 0 || o.victim >= size_) return;
  counters_.countOutcome(o.gotWork);
  const auto i = static_cast<std::size_t>(o.victim);
  if (o.gotWork) {
    last_ = o.victim;
    refusedStamp_[i] = 0;
    return;
  }
  if (o.victim == last_) last_ = -1;
  if (p_.staleGuard) {
    scores_.readOne(o.victim);
    // timeNs 0 = never published: its weight is 0 anyway, nothing to guard.
    refusedStamp_[i] = scores_.record(o.victim).timeNs;
  }
}

nlohmann::json ProportionalPolicy::stats() const {
  auto j = counters_.toJson();
  j["policy"] = name();
  j["sticky_choices"] = stickyChoices_;
  j["sampled_choices"] = sampledChoices_;
  j["uniform_fallbacks"] = counters_.noTarget;
  j["stale_guard_skips"] = guardedSkips_;
  return j;
}

}  // namespace jackdaw::comm
