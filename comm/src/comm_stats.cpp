#include "jackdaw/comm/comm_stats.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>

namespace jackdaw::comm {

nlohmann::json toJson(const CommStats& s) {
  const std::uint64_t answered = s.stealsGranted + s.stealsRefused;
  return {{"steal_requests_sent", s.stealRequestsSent},
          {"steals_granted", s.stealsGranted},
          {"steals_refused", s.stealsRefused},
          {"requests_answered", s.requestsAnswered},
          {"requests_granted", s.requestsGranted},
          {"tasks_sent", s.tasksSent},
          {"tasks_received", s.tasksReceived},
          {"bytes_sent", s.bytesSent},
          {"bytes_received", s.bytesReceived},
          {"board_publishes", s.boardPublishes},
          {"bound_publishes", s.boundPublishes},
          {"stop_publishes", s.stopPublishes},
          {"termination_waves", s.waves},
          {"steal_round_trip_us_mean", answered ? s.stealRoundTripUsTotal / static_cast<double>(answered) : 0.0},
          {"comm_cpu_seconds", s.commCpuSeconds},
          {"comm_wall_seconds", s.commWallSeconds},
          {"comm_sleeps", s.commSleeps},
          {"own_cores", s.ownCores},
          {"latency_us", s.latencyUs},
          {"round_trip_us", s.roundTripUs},
          {"hunger_episodes", s.hungerEpisodes},
          {"request_bursts", s.requestBursts},
          {"choices_logged", s.choiceBins.size()},
          {"choices_dropped", s.choicesDropped},
          {"round_trip_us_log2", s.roundTripLog2},
          {"record_age_us_log2", s.recordAgeLog2},
          {"requests_promised", s.requestsPromised},
          {"promised_refused", s.promisedRefused},
          {"unpromised_granted", s.unpromisedGranted},
          {"publish_us_total", s.publishUsTotal},
          {"board_fetches", s.boardFetches},
          {"fetched_records", s.fetchedRecords},
          {"fetch_us_total", s.fetchUsTotal},
          {"doorbell_rings", s.doorbellRings},
          {"seed_requests", s.seedRequests},
          {"seeds_granted", s.seedsGranted},
          {"seeds_held", s.seedsHeld},
          {"seed_redirects", s.seedRedirects},
          {"seed_hold_us_total", s.seedHoldUsTotal},
          {"steals_held", s.stealsHeld},
          {"held_granted", s.heldGranted},
          {"steal_hold_us_total", s.stealHoldUsTotal}};
}

void addLog2(std::vector<std::uint64_t>& cells, double us) {
  if (cells.empty()) return;
  const auto v = static_cast<std::uint64_t>(std::max(1.0, us));
  const auto b = static_cast<std::size_t>(std::bit_width(v) - 1);
  ++cells[std::min(b, cells.size() - 1)];
}

double log2MedianUpper(const std::vector<std::uint64_t>& cells) {
  std::uint64_t total = 0;
  for (auto c : cells) total += c;
  if (total == 0) return 0.0;
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < cells.size(); ++b) {
    seen += cells[b];
    if (2 * seen >= total) return std::ldexp(1.0, static_cast<int>(b) + 1);
  }
  return std::ldexp(1.0, static_cast<int>(cells.size()));
}

nlohmann::json boardSummary(const std::vector<const CommStats*>& ranks) {
  std::vector<std::uint64_t> rtt(CommStats::kLog2Cells, 0), age(CommStats::kLog2Cells, 0);
  std::uint64_t publishes = 0, fetches = 0, fetched = 0, promised = 0, refused = 0, unpromised = 0, rings = 0;
  double publishUs = 0, fetchUs = 0;
  for (const CommStats* s : ranks) {
    for (std::size_t b = 0; b < rtt.size() && b < s->roundTripLog2.size(); ++b) rtt[b] += s->roundTripLog2[b];
    for (std::size_t b = 0; b < age.size() && b < s->recordAgeLog2.size(); ++b) age[b] += s->recordAgeLog2[b];
    publishes += s->boardPublishes;
    publishUs += s->publishUsTotal;
    fetches += s->boardFetches;
    fetched += s->fetchedRecords;
    fetchUs += s->fetchUsTotal;
    promised += s->requestsPromised;
    refused += s->promisedRefused;
    unpromised += s->unpromisedGranted;
    rings += s->doorbellRings;
  }
  auto mean = [](double t, std::uint64_t n) { return n ? t / static_cast<double>(n) : 0.0; };
  return {{"publishes", publishes},
          {"publish_us_mean", mean(publishUs, publishes)},
          {"fetches", fetches},
          {"fetched_records", fetched},
          {"fetch_us_mean", mean(fetchUs, fetches)},
          {"requests_promised", promised},
          {"promised_refused_share", promised ? static_cast<double>(refused) / static_cast<double>(promised) : 0.0},
          {"unpromised_granted", unpromised},
          {"record_age_us_median_below", log2MedianUpper(age)},
          {"record_age_us_log2", age},
          {"round_trip_us_median_below", log2MedianUpper(rtt)},
          {"round_trip_us_log2", rtt},
          {"doorbell_rings", rings}};
}

namespace {
bool isCounterArray(const nlohmann::json& v) {
  if (!v.is_array() || v.empty()) return false;
  for (const auto& x : v)
    if (!x.is_number_unsigned()) return false;
  return true;
}
}  // namespace

void addCounters(nlohmann::json& into, const nlohmann::json& from) {
  for (const auto& [k, v] : from.items()) {
    if (v.is_number_unsigned()) {
      into[k] = into.value(k, std::uint64_t{0}) + v.get<std::uint64_t>();
    } else if (isCounterArray(v)) {
      auto& h = into[k];
      if (h.is_null()) h = nlohmann::json::array();
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i >= h.size()) h.push_back(std::uint64_t{0});
        h[i] = h[i].get<std::uint64_t>() + v[i].get<std::uint64_t>();
      }
    } else if (v.is_number_float() && k.find("mean") == std::string::npos && k.find("final") == std::string::npos) {
      into[k] = into.value(k, 0.0) + v.get<double>();
    }
  }
}

nlohmann::json herding(const std::vector<const CommStats*>& ranks) {
  std::vector<std::uint64_t> bursts(CommStats::kBurstCells, 0);
  std::map<std::uint32_t, std::map<std::uint32_t, std::uint64_t>> perBin;  // bin -> victim -> choices
  std::uint64_t choices = 0, dropped = 0;
  for (const CommStats* s : ranks) {
    for (std::size_t k = 0; k < bursts.size() && k < s->requestBursts.size(); ++k) bursts[k] += s->requestBursts[k];
    for (std::size_t i = 0; i < s->choiceBins.size(); ++i) ++perBin[s->choiceBins[i]][s->choiceVictims[i]];
    choices += s->choiceBins.size();
    dropped += s->choicesDropped;
  }
  std::uint64_t toMost = 0;
  for (const auto& [bin, victims] : perBin) {
    std::uint64_t most = 0;
    for (const auto& [v, n] : victims) most = std::max(most, n);
    toMost += most;
  }
  return {{"bursts", bursts},
          {"share_to_most_chosen", choices ? static_cast<double>(toMost) / static_cast<double>(choices) : 0.0},
          {"choices", choices},
          {"bins_10ms", perBin.size()},
          {"choices_dropped", dropped}};
}

}  // namespace jackdaw::comm
