#include "jackdaw/comm/steal_protocol.hpp"

#include <algorithm>
#include <limits>

#include "jackdaw/comm/seed_tree.hpp"

namespace jackdaw::comm {

StealProtocol::StealProtocol(const CommOptions& opts, int rank, int size, VictimPolicy& policy, const BoardView& view,
                             CommStats& stats, StealPort& port, std::uint64_t startNs)
    : o_(opts), rank_(rank), size_(size), policy_(policy), view_(view), stats_(stats), port_(port), startNs_(startNs),
      probePeer_(rank), backoff_(opts.minSleep) {
  seedVictim_ = seedParent(rank_, o_.seedArity);
  seeding_ = seedVictim_ >= 0 && size_ > 1;
  const auto n = static_cast<std::size_t>(size_);
  delaySumUs_.assign(n, 0.0);
  rttSumUs_.assign(n, 0.0);
  delaySamples_.assign(n, 0);
  rttSamples_.assign(n, 0);
}

bool StealProtocol::onTurn(std::uint64_t now, bool hungry) {
  if (size_ < 2 || port_.stopped()) return false;
  // A hunger episode starts when the rank starts needing work; the policy starts it afresh
  // (performance: the retry after a refusal belongs to one episode).
  if (hungry && !hungry_) {
    ++stats_.hungerEpisodes;
    policy_.onHungry();
  }
  hungry_ = hungry;
  if (static_cast<int>(inflight_.size()) >= o_.maxStealsInFlight || now < nextStealNs_ || !hungry) return false;
  int victim = seedVictim_;
  if (!seeding_) {
    port_.policyCallBegins();
    victim = policy_.choose();  // may read records at their owners
    port_.policyCallEnds();
  }
  if (victim < 0 || victim == rank_ || victim >= size_ || inflight_.count(victim) || port_.stopped()) return false;
  StealRequest q;
  q.half = o_.stealHalf;
  q.seed = seeding_;
  q.id = stats_.stealRequestsSent;
  if (seeding_) {
    ++stats_.seedRequests;
  } else if (auto rec = view_.read(victim); rec && rec->seq > 0) {
    q.seen = true;
    q.queued = rec->queued;
    addLog2(stats_.recordAgeLog2, 1e-3 * static_cast<double>(now - std::min(now, rec->timeNs)));
  }
  // Not `now`: a choice that read the board took time, and a reply handled since came later.
  inflight_[victim] = {port_.nowNs(), q.id, q.seed};
  port_.sendRequest(victim, q, o_.doorbell);
  if (o_.doorbell) ++stats_.doorbellRings;
  ++stats_.stealRequestsSent;
  if (q.seed) {
    // Not a policy's choice: left out of the herding log.
  } else if (stats_.choiceBins.size() < CommStats::kMaxChoices) {
    stats_.choiceBins.push_back(static_cast<std::uint32_t>((now - std::min(now, startNs_)) / 10'000'000));
    stats_.choiceVictims.push_back(static_cast<std::uint32_t>(victim));
  } else {
    ++stats_.choicesDropped;
  }
  return true;
}

void StealProtocol::onReply(int victim, std::uint32_t count, std::optional<int> redirect, bool draining) {
  const std::uint64_t t = port_.nowNs();
  StealOutcome o;
  o.victim = victim;
  o.gotWork = count > 0;
  o.tasks = count;
  bool seedReply = false;
  if (auto it = inflight_.find(victim); it != inflight_.end()) {
    seedReply = it->second.seed;
    o.roundTripUs = 1e-3 * static_cast<double>(t - std::min(t, it->second.sentNs));
    if (o_.events) o_.events->stealEnded({rank_, victim, it->second.id, count, it->second.sentNs, t});
    inflight_.erase(it);
  }
  stats_.stealRoundTripUsTotal += o.roundTripUs;
  if (count > 0) {
    ++stats_.stealsGranted;
    stats_.tasksReceived += count;
    stealRetryUs_ = 0;
    nextStealNs_ = 0;
  } else {
    ++stats_.stealsRefused;
    // Back off, doubling up to stealRetryMax, so that a rank whose peers are all dry does not
    // flood them.
    stealRetryUs_ = stealRetryUs_ == 0 ? static_cast<std::uint64_t>(o_.minSleep.count())
                                       : std::min<std::uint64_t>(stealRetryUs_ * 2, o_.stealRetryMax.count());
    nextStealNs_ = t + stealRetryUs_ * 1000;
  }
  if (seedReply) {
    // Not the policy's choice: nothing to tell it. A refusal that names a rank sends the seed
    // request on up the tree; otherwise the seed phase is over, and after a refusal the policy may
    // choose at once.
    if (count > 0) {
      ++stats_.seedsGranted;
      seeding_ = false;
    } else {
      nextStealNs_ = 0;
      if (followSeedRedirect(redirect.value_or(-1), rank_, size_, draining)) {
        seedVictim_ = *redirect;
        ++stats_.seedRedirects;
      } else {
        seeding_ = false;
      }
    }
    return;
  }
  if (draining) return;
  // A policy may own the pacing after a refusal (performance: retry at once, then back off).
  const std::int64_t d = policy_.onOutcome(o);
  if (!o.gotWork && d >= 0) nextStealNs_ = t + static_cast<std::uint64_t>(d) * 1000;
  if (o.roundTripUs > 0) roundTripSample(o.victim, o.roundTripUs);
}

void StealProtocol::onRequest(int thief, const StealRequest& q, bool draining) {
  const std::uint64_t at = port_.nowNs();
  // Herding: requests closer together than herdWindow form one burst.
  if (burst_ > 0 && at - std::min(at, lastRequestNs_) > static_cast<std::uint64_t>(o_.herdWindow.count()) * 1000) endBurst();
  ++burst_;
  lastRequestNs_ = at;
  if (!answer(thief, q, at, draining, 0.0)) {
    held_.push_back({thief, q, at});
    ++(q.seed ? stats_.seedsHeld : stats_.stealsHeld);
  }
}

bool StealProtocol::serveHeld(bool draining) {
  bool any = false;
  const std::uint64_t now = port_.nowNs();
  for (auto it = held_.begin(); it != held_.end();) {
    const double heldUs = 1e-3 * static_cast<double>(now - std::min(now, it->arrivedNs));
    if (!answer(it->thief, it->q, it->arrivedNs, draining, heldUs)) {
      ++it;
      continue;
    }
    it = held_.erase(it);
    any = true;
  }
  return any;
}

// A seed request waits while this rank has work or expects its own (seed_tree.hpp); any other
// request while a busy worker will split for it. Either for at most its maximum.
bool StealProtocol::keep(const StealRequest& q, double heldUs) {
  if (q.seed) return holdSeedRequest(seeding_, port_.holdsWork(), heldUs, static_cast<double>(o_.seedHoldMax.count()));
  return heldUs < static_cast<double>(o_.stealHoldMax.count()) && port_.splitsForThieves();
}

// heldUs: how long the request has been held (0 on arrival). take() is asked even when the request
// may be kept: it is what makes a busy worker split for a thief.
bool StealProtocol::answer(int thief, const StealRequest& q, std::uint64_t arrivedNs, bool draining, double heldUs) {
  // The answer's span starts at the request's arrival, or a held one's when its hold ends: one
  // thread answers, so its spans never cross (a held request's, from its arrival, would cross
  // those answered while it waited).
  const std::uint64_t fromNs = heldUs > 0 && o_.events ? port_.nowNs() : arrivedNs;
  const std::uint32_t count = draining ? 0 : port_.take(thief, q);
  if (count == 0 && !draining && keep(q, heldUs)) return false;
  if (heldUs > 0) {
    (q.seed ? stats_.seedHoldUsTotal : stats_.stealHoldUsTotal) += heldUs;
    if (!q.seed && count > 0) ++stats_.heldGranted;
  }
  std::optional<int> redirect;
  if (count == 0 && q.seed && !draining) {
    // A refused seed request names where to ask next (seed_tree.hpp).
    if (const int to = seedRedirect(rank_, o_.seedArity, o_.seedRedirect); to >= 0) redirect = to;
  }
  // What we can give has changed (or the board said more than we had): say so at once, so that
  // the next thief reads our real count, not the one from before this answer.
  if (count > 0 || lastRecord_.queued > 0) publishSoon_ = true;
  ++stats_.requestsAnswered;
  if (q.seen && q.queued > 0) {
    ++stats_.requestsPromised;
    if (count == 0) ++stats_.promisedRefused;
  } else if (count > 0) {
    ++stats_.unpromisedGranted;
  }
  if (count > 0) {
    ++stats_.requestsGranted;
    stats_.tasksSent += count;
  }
  port_.sendAnswer(thief, q, count, redirect);
  if (o_.events) o_.events->stealAnswered({thief, rank_, q.id, count, fromNs, port_.nowNs()});
  return true;
}

bool StealProtocol::publishDue(std::uint64_t now, std::uint64_t stealable, bool rateLimited) const {
  const bool crossed = everPublished_ && ((stealable == 0) != (lastRecord_.queued == 0));
  if (crossed || publishSoon_ || !everPublished_) return true;
  const auto interval = rateLimited ? static_cast<std::uint64_t>(o_.publishInterval.count()) * 1000 : 0;
  return now - std::min(now, lastPublishNs_) >= interval;
}

bool StealProtocol::offerRecord(std::uint64_t now, const RankRecord& r) {
  publishSoon_ = false;
  if (everPublished_ && r.workRate == lastRecord_.workRate && r.queued == lastRecord_.queued &&
      r.pooled == lastRecord_.pooled && r.running == lastRecord_.running && r.idle == lastRecord_.idle)
    return false;
  lastRecord_ = r;
  everPublished_ = true;
  lastPublishNs_ = now;
  return true;
}

std::optional<int> StealProtocol::probeDue(std::uint64_t now) {
  if (size_ < 2 || now - std::min(now, lastProbeNs_) < static_cast<std::uint64_t>(o_.latencyProbeInterval.count()) * 1000)
    return std::nullopt;
  lastProbeNs_ = now;
  probePeer_ = (probePeer_ + 1) % size_;
  if (probePeer_ == rank_) probePeer_ = (probePeer_ + 1) % size_;
  return probePeer_;
}

// The delay (3.2) is the time to read a rank's load: timed one-sided reads only. A steal round
// trip mostly measures the victim's wake-up and would bias the delay against ranks recently
// robbed, so it is reported apart (and offered to the policy as such).
void StealProtocol::delaySample(int peer, double us) {
  delaySumUs_[static_cast<std::size_t>(peer)] += us;
  ++delaySamples_[static_cast<std::size_t>(peer)];
  policy_.onDelaySample(peer, us);
}

void StealProtocol::roundTripSample(int peer, double us) {
  addLog2(stats_.roundTripLog2, us);
  rttSumUs_[static_cast<std::size_t>(peer)] += us;
  ++rttSamples_[static_cast<std::size_t>(peer)];
  policy_.onRoundTrip(peer, us);
}

void StealProtocol::refreshIfDue(std::uint64_t now) {
  if (now < nextRefreshNs_) return;
  port_.policyCallBegins();
  nextRefreshNs_ = policy_.refresh(now);
  port_.policyCallEnds();
}

std::optional<std::chrono::microseconds> StealProtocol::afterTurn(bool active, int idleWorkers, bool sendsPending) {
  if (active) {
    backoff_ = o_.minSleep;
    return std::nullopt;
  }
  // Held seed requests wait for spare work, which nobody announces: look as often as for a reply.
  // A held steal request waits for a split, and the worker that splits wakes us (splitForThief), as
  // does one whose task ends with the pool empty: sleep no longer than its hold has left.
  bool seedHeld = false;
  std::uint64_t firstSteal = std::numeric_limits<std::uint64_t>::max();  // the oldest held steal request's arrival
  for (const Held& h : held_) {
    if (h.q.seed)
      seedHeld = true;
    else
      firstSteal = std::min(firstSteal, h.arrivedNs);
  }
  Sleep s = nextSleep(o_, backoff_, !inflight_.empty() || seedHeld, lastRecord_.pooled > 0, idleWorkers, sendsPending);
  backoff_ = std::min(s.now * 2, s.cap);
  if (!seedHeld && firstSteal != std::numeric_limits<std::uint64_t>::max()) {
    const std::uint64_t now = port_.nowNs();
    const std::uint64_t until = firstSteal + static_cast<std::uint64_t>(o_.stealHoldMax.count()) * 1000;
    s.now = std::min(s.now, std::chrono::microseconds((until > now ? until - now : 0) / 1000 + 1));
  }
  return s.now;
}

void StealProtocol::endBurst() {
  if (burst_ == 0) return;
  ++stats_.requestBursts[std::min<std::size_t>(burst_, CommStats::kBurstCells) - 1];
  burst_ = 0;
}

void StealProtocol::finish() {
  endBurst();
  const auto n = static_cast<std::size_t>(size_);
  stats_.latencyUs.assign(n, 0.0);
  stats_.roundTripUs.assign(n, 0.0);
  for (std::size_t p = 0; p < n; ++p) {
    if (delaySamples_[p]) stats_.latencyUs[p] = delaySumUs_[p] / static_cast<double>(delaySamples_[p]);
    if (rttSamples_[p]) stats_.roundTripUs[p] = rttSumUs_[p] / static_cast<double>(rttSamples_[p]);
  }
}

}  // namespace jackdaw::comm
