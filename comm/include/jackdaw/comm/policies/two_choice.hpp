// The `twochoice` victim policy: the better-scored of d ranks drawn uniformly at random (the
// "power of two choices", d = 2 by default), scored by (3.3) exactly as `performance` scores them.
//
// Why (what jackdaw-sim showed at 1,000 ranks, bench/results/sim_study_grid.md):
// - `performance` sends every thief to the one arg-max rank: up to a fifth of all requests in a
//   10 ms window go to a single victim, which can serve one of them;
// - `proportional` spreads thieves but scores every candidate on every choice: P − 1 records read
//   per steal on the pushed board, whose all-to-all publication itself does not hold at 1,000
//   ranks;
// - `random` reads nothing but keeps asking ranks that have nothing.
// Two random candidates are enough to avoid most empty victims (a thief misses only when both are
// empty), no two thieves share a target by construction, and a choice reads d records: with
// --board sample (d = --board-sample records read at their owners) nothing is published to all.
// As `proportional`: the last rank that gave work is asked first (sticky), a rank that refused us
// is ignored until it republishes (stale guard), and when no candidate scores above 0 a uniformly
// random one is asked.
//
//   TwoChoicePolicy p(env, {});  int v = p.choose();  p.onOutcome({v, false});
#pragma once

#include <random>
#include <vector>

#include "jackdaw/comm/policies/policy_support.hpp"

namespace jackdaw::comm {

class TwoChoicePolicy final : public VictimPolicy {
 public:
  static constexpr const char* name = "twochoice";
  static constexpr const char* summary = "the better-scored of d ranks drawn at random (power of d choices, d = 2)";

  struct Params {
    ScoreParams score{};
    double choices = 2;  // d: candidates drawn per choice on the pushed board (the sampled board draws its own)
    bool sticky = true;  // retry the last rank that gave work first
    template <class F>
    void visit(F&& f) {
      score.visit(f);
      f("--two-choices", choices, "twochoice: ranks drawn per choice on the pushed board (d)", 1.0, 1e6);
      f("--two-sticky", sticky, "twochoice: 1 = retry the last rank that gave work first", 0.0, 1.0);
    }
  };

  TwoChoicePolicy(const PolicyEnv& e, const Params& p)
      : p_(p), rank_(e.rank), size_(e.size), view_(e.board), rng_(e.seed ^ static_cast<std::uint64_t>(e.rank)),
        scores_(e, p.score), counters_(e.size) {}

  int choose() override {
    if (size_ < 2) return -1;
    int v = -1;
    if (p_.sticky && last_.rank >= 0) {
      v = last_.rank;
      ++stickyChoices_;
    } else {
      double best = 0.0;
      for (int r : draw()) {
        scores_.readOne(r);
        const double s = scores_.stale(r) ? 0.0 : scores_.score(r);
        if (s > best) best = s, v = r;
      }
      if (v >= 0) {
        ++scoredChoices_;
      } else {
        ++counters_.noTarget;  // no candidate looks worth it: uniform, as `random`
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
    else scores_.noteRefusal(o.victim);
    return kOwnBackoff;
  }

  void onDelaySample(int peer, double us) override { scores_.onDelaySample(peer, us); }

  nlohmann::json stats() const override {
    auto j = counters_.choiceJson();
    j["sticky_choices"] = stickyChoices_;
    j["scored_choices"] = scoredChoices_;
    j["uniform_fallbacks"] = counters_.noTarget;
    return j;
  }

  int remembered() const noexcept { return last_.rank; }

 private:
  // The candidates of one choice: the board's sample when it samples (already read at the owners),
  // else d distinct ranks drawn here from all the others.
  std::vector<int> draw() {
    if (view_ && view_->samples()) return view_->candidates(rank_, size_).ranks;
    return sampleOtherRanks(rank_, size_, static_cast<int>(p_.choices), rng_).ranks;
  }

  Params p_;
  int rank_, size_;
  BoardView* view_;
  std::mt19937_64 rng_;
  PeerScores scores_;
  PolicyCounters counters_;
  LastGiver last_;
  std::uint64_t stickyChoices_ = 0, scoredChoices_ = 0;
};

}  // namespace jackdaw::comm
