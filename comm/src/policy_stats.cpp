#include "jackdaw/comm/policies/policy_stats.hpp"

#include <string>

#include "jackdaw/comm/gather.hpp"

namespace jackdaw::comm {

nlohmann::json gatherPolicyStats(MPI_Comm comm, const VictimPolicy& policy) {
  const std::string text = policy.stats().dump();
  auto blobs = gatherBlobs(comm, std::as_bytes(std::span(text)));
  if (blobs.empty()) return {};
  nlohmann::json ranks = nlohmann::json::array(), totals = nlohmann::json::object();
  for (const auto& b : blobs) {
    auto j = nlohmann::json::parse(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
    for (auto& [k, v] : j.items()) {
      // Counters add up; the histogram adds element-wise; series and finals are per rank only.
      if (v.is_number_unsigned()) totals[k] = totals.value(k, std::uint64_t{0}) + v.get<std::uint64_t>();
      else if (k == "targets_chosen") {
        auto& h = totals[k];
        if (h.is_null()) h = nlohmann::json::array();
        for (std::size_t i = 0; i < v.size(); ++i) {
          if (i >= h.size()) h.push_back(std::uint64_t{0});
          h[i] = h[i].get<std::uint64_t>() + v[i].get<std::uint64_t>();
        }
      }
    }
    ranks.push_back(std::move(j));
  }
  return {{"policy", policy.name()}, {"ranks", ranks}, {"totals", totals}};
}

}  // namespace jackdaw::comm
