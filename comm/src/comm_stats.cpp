#include "jackdaw/comm/comm_stats.hpp"

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
          {"hunger_episodes", s.hungerEpisodes}};
}

}  // namespace jackdaw::comm
