// Tunable constants of the victim policies, carried in PolicyContext. Defaults are the 2023
// dissertation's (POLICY.md); policyParamTable() lists every one with a flag name and help text so
// the app layer can expose them as CLI flags without comm/ depending on CLI11:
//
//   for (const auto& p : policyParamTable()) app.add_option(p.flag, values[p.flag], p.help)->default_val(p.defaultValue);
//   ...; for (const auto& p : policyParamTable()) p.set(ctx, values[p.flag]);
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace jackdaw::comm {

struct PolicyContext;

// POLICY.md "performance": (3.2), (3.3) and the refresh / back-off rule.
struct PerformanceParams {
  double alpha = 0.65;          // weight of the new sample in (3.2); the old value keeps 1 − alpha
  double logOffset = 2.72;      // the 2.72 inside ln(·) of (3.2)
  double minRate = 0.0001;      // floor on a rank's work rate in (3.3)
  double waitInitialMs = 1;     // automatic refresh interval before the first adjustment
  double waitStepUpMs = 60;     // after a refresh that found a target: wait + step, capped
  double waitMaxMs = 240;
  double waitStepDownMs = 120;  // after a "no target" refresh: wait − step, floored
  double waitMinMs = 5;
  // POLICY.md says "back off (sleep)" after the retry fails but gives no length; 1 ms is
  // Jackdaw's choice (the comm thread's own refusal back-off also tops out at 1 ms).
  double backoffMs = 1;
};

// The `proportional` policy (policies/proportional.hpp); score constants are shared with
// PerformanceParams (alpha, logOffset, minRate).
struct ProportionalParams {
  bool sticky = true;      // retry the last rank that gave work first (as `random` does)
  bool staleGuard = true;  // after a refusal, weight 0 for that rank until it republishes
};

struct PolicyParam {
  std::string flag;      // e.g. "--perf-alpha"
  double defaultValue;   // booleans are 0 / 1
  std::string help;
  std::function<void(PolicyContext&, double)> set;
  double lo = 0.0;  // accepted range, checked where the flag is parsed
  double hi = std::numeric_limits<double>::max();
};

const std::vector<PolicyParam>& policyParamTable();

}  // namespace jackdaw::comm
