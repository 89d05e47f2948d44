// The table of victim policies by name. Explicit (not self-registering objects) so a static
// library link cannot silently drop a policy.
#include <map>
#include <stdexcept>

#include "jackdaw/comm/policies/performance.hpp"
#include "jackdaw/comm/policies/proportional.hpp"
#include "jackdaw/comm/policies/random.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

static const std::map<std::string, PolicyFactory>& table() {
  static const std::map<std::string, PolicyFactory> t = {
      {"random", [](const PolicyContext& c) { return std::make_unique<RandomPolicy>(c); }},
      {"performance", [](const PolicyContext& c) { return std::make_unique<PerformancePolicy>(c); }},
      {"proportional", [](const PolicyContext& c) { return std::make_unique<ProportionalPolicy>(c); }},
  };
  return t;
}

std::vector<std::string> policyNames() {
  std::vector<std::string> names;
  for (const auto& [n, f] : table()) names.push_back(n);
  return names;
}

std::unique_ptr<VictimPolicy> makePolicy(const std::string& name, const PolicyContext& ctx) {
  auto it = table().find(name);
  if (it == table().end()) {
    std::string known;
    for (const auto& n : policyNames()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown victim policy '" + name + "' (known: " + known + ")");
  }
  return it->second(ctx);
}

}  // namespace jackdaw::comm
