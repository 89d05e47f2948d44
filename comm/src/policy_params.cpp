// The flag table of policy constants (policies/params.hpp). Defaults come from the structs, so
// the table cannot drift from them.
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

const std::vector<PolicyParam>& policyParamTable() {
  static const PerformanceParams perf{};
  static const ProportionalParams prop{};
  using P = PolicyParam;
  static const std::vector<PolicyParam> table = {
      P{"--perf-alpha", perf.alpha, "performance: weight of a new delay sample in (3.2) (old keeps 1-alpha)",
        [](PolicyContext& c, double v) { c.performance.alpha = v; }, 0.0, 1.0},
      P{"--perf-log-offset", perf.logOffset, "performance: constant inside ln() of (3.2)",
        [](PolicyContext& c, double v) { c.performance.logOffset = v; },
        std::numeric_limits<double>::min()},
      P{"--perf-min-rate", perf.minRate, "performance: floor on a rank's work rate in the score (3.3)",
        [](PolicyContext& c, double v) { c.performance.minRate = v; }},
      P{"--perf-wait-initial-ms", perf.waitInitialMs, "performance: initial automatic refresh interval (ms)",
        [](PolicyContext& c, double v) { c.performance.waitInitialMs = v; }},
      P{"--perf-wait-step-up-ms", perf.waitStepUpMs, "performance: interval increase after a refresh that found a target (ms)",
        [](PolicyContext& c, double v) { c.performance.waitStepUpMs = v; }},
      P{"--perf-wait-max-ms", perf.waitMaxMs, "performance: longest refresh interval (ms)",
        [](PolicyContext& c, double v) { c.performance.waitMaxMs = v; }},
      P{"--perf-wait-step-down-ms", perf.waitStepDownMs, "performance: interval decrease after a no-target refresh (ms)",
        [](PolicyContext& c, double v) { c.performance.waitStepDownMs = v; }},
      P{"--perf-wait-min-ms", perf.waitMinMs, "performance: shortest refresh interval (ms)",
        [](PolicyContext& c, double v) { c.performance.waitMinMs = v; }},
      P{"--perf-backoff-ms", perf.backoffMs, "performance: back-off after the retry following an auxiliary refresh fails (ms)",
        [](PolicyContext& c, double v) { c.performance.backoffMs = v; }},
      P{"--prop-sticky", prop.sticky ? 1.0 : 0.0, "proportional: 1 = retry the last rank that gave work first",
        [](PolicyContext& c, double v) { c.proportional.sticky = v != 0.0; }, 0.0, 1.0},
      P{"--prop-stale-guard", prop.staleGuard ? 1.0 : 0.0,
        "proportional: 1 = ignore a rank that refused us until it republishes its load",
        [](PolicyContext& c, double v) { c.proportional.staleGuard = v != 0.0; }, 0.0, 1.0},
  };
  return table;
}

}  // namespace jackdaw::comm
