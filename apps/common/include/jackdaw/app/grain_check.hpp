// The grain check, a feature of the app frame (run_feature.hpp): the largest task of a parallel
// search against the whole. While one task visited a share s of the nodes, the other W − 1 workers
// visited at most the rest: at equal speed they were busy at most (1 − s) / ((W − 1) s) of that
// time. Above half idle, rank 0 warns and says which flag splits work finer; --stats "grain" holds
// the numbers either way.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/app/context.hpp"
#include "jackdaw/app/run_feature.hpp"
#include "jackdaw/core/worker_report.hpp"

namespace jackdaw::app {

// What the grain check keeps across a run, in AppContext::features (feature_states.hpp).
struct GrainState {
  nlohmann::json section;  // rank 0: the largest task's share of the nodes (--stats "grain")
};

class GrainCheck final : public RunFeature {
 public:
  explicit GrainCheck(AppContext& ctx) : ctx_(ctx) {}
  void afterLeg(Leg& leg) override { add(*leg.workers, *leg.ranks); }
  void finish(Leg& last) override { report(ctx_, last.stats.nodes); }

  // After each search: this rank's workers, and (rank 0 of several) every rank's.
  void add(const std::vector<WorkerReport>& mine, const distributed::Report& all);
  // After the last search, with the whole run's nodes.
  void report(AppContext& ctx, std::uint64_t nodes) const;

 private:
  void reportAutomatic(AppContext& ctx) const;
  AppContext& ctx_;
  std::uint64_t largest_ = 0;
  int workers_ = 0;  // across ranks
  std::vector<std::uint64_t> chosen_;  // -d auto / -b auto: each worker's final setting (last search)
  std::uint64_t changes_ = 0;          // and how often the workers changed it
};

}  // namespace jackdaw::app
