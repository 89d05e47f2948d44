#include "jackdaw/comm/comm_stats.hpp"

#include <algorithm>
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
          {"latency_us", s.latencyUs},
          {"round_trip_us", s.roundTripUs},
          {"hunger_episodes", s.hungerEpisodes},
          {"request_bursts", s.requestBursts},
          {"choices_logged", s.choiceBins.size()},
          {"choices_dropped", s.choicesDropped}};
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
