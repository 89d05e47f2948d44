#include "jackdaw/comm/policies/policy_support.hpp"

#include <algorithm>
#include <cmath>

namespace jackdaw::comm {

PeerScores::PeerScores(const PolicyEnv& env, const ScoreParams& p)
    : p_(p), rank_(env.rank), workers_(std::max(1, env.workers)), view_(env.board), delay_(static_cast<std::size_t>(env.size), 0.0),
      rec_(static_cast<std::size_t>(env.size)), refusedAt_(static_cast<std::size_t>(env.size), 0) {}

void PeerScores::onDelaySample(int peer, double us) {
  if (peer < 0 || peer >= size()) return;
  double& d = delay_[static_cast<std::size_t>(peer)];
  d = p_.alpha * std::log(p_.logOffset + us * workers_) + (1.0 - p_.alpha) * d;
}

void PeerScores::readOne(int peer) {
  if (!view_) return;
  if (auto r = view_->read(peer)) rec_[static_cast<std::size_t>(peer)] = *r;
}

const std::vector<int>& PeerScores::readBoard() {
  candidates_ = view_ ? view_->candidates(rank_, size()) : everyOtherRank(rank_, size());
  for (int r : candidates_.ranks) readOne(r);
  return candidates_.ranks;
}

void PeerScores::freshen(std::span<const int> ranks) {
  if (!view_ || ranks.empty()) return;
  view_->refresh(ranks);
  for (int r : ranks) readOne(r);
}

double PeerScores::score(int peer) const {
  const RankRecord& r = rec_[static_cast<std::size_t>(peer)];
  return std::max(r.workRate, p_.minRate) * static_cast<double>(r.queued) - delay_[static_cast<std::size_t>(peer)];
}

void PolicyCounters::recordWait(double tMs, double waitMs) {
  if (waitSeries.size() < kMaxSeries) waitSeries.emplace_back(tMs, waitMs);
  else ++waitSeriesDropped;
}

nlohmann::json PolicyCounters::choiceJson() const {
  return {{"steals_tried", tried}, {"steals_succeeded", succeeded}, {"steals_failed", failed}, {"targets_chosen", chosen}};
}

nlohmann::json PolicyCounters::toJson() const {
  nlohmann::json series = nlohmann::json::array();
  for (const auto& [t, w] : waitSeries) series.push_back({t, w});
  auto j = choiceJson();
  j.update({{"refreshes_automatic", refreshesAutomatic},
            {"refreshes_auxiliary", refreshesAuxiliary},
            {"no_target_refreshes", noTarget},
            {"backoffs", backoffs},
            {"wait_ms_series", series},
            {"wait_series_dropped", waitSeriesDropped}});
  return j;
}

}  // namespace jackdaw::comm
