// Counters of one rank's comm thread, gathered to rank 0 once at the end (Session::gather).
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace jackdaw::comm {

struct CommStats {
  // thief side
  std::uint64_t stealRequestsSent = 0;
  std::uint64_t stealsGranted = 0;   // replies that carried work
  std::uint64_t stealsRefused = 0;   // "no work" replies
  // victim side
  std::uint64_t requestsAnswered = 0;
  std::uint64_t requestsGranted = 0;
  // work moved
  std::uint64_t tasksSent = 0, tasksReceived = 0;
  std::uint64_t bytesSent = 0, bytesReceived = 0;
  // board and termination
  std::uint64_t boardPublishes = 0, boundPublishes = 0, stopPublishes = 0;
  std::uint64_t waves = 0;
  double stealRoundTripUsTotal = 0.0;  // sum over granted + refused steals
  double commCpuSeconds = 0.0;         // getrusage(RUSAGE_THREAD) of the comm thread
  double commWallSeconds = 0.0;
  std::vector<double> latencyUs;       // mean timed one-sided read of each rank's record, µs ((3.2)'s samples)
  std::vector<double> roundTripUs;     // mean steal round trip to each rank, µs (0: none)
  std::uint64_t hungerEpisodes = 0;    // times this rank started needing work

  template <class Archive>
  void serialize(Archive& ar) {
    ar(stealRequestsSent, stealsGranted, stealsRefused, requestsAnswered, requestsGranted, tasksSent, tasksReceived,
       bytesSent, bytesReceived, boardPublishes, boundPublishes, stopPublishes, waves, stealRoundTripUsTotal,
       commCpuSeconds, commWallSeconds, latencyUs, roundTripUs, hungerEpisodes);
  }
};

// The counters by name (snake_case), plus the mean steal round trip; how a report arranges them is
// the report's business (apps/common/src/report.cpp).
nlohmann::json toJson(const CommStats& s);

}  // namespace jackdaw::comm
