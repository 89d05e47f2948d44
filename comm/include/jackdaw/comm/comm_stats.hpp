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
  // Herding, victim side: steal requests arriving within herdWindow of the previous one form a
  // burst; requestBursts[k-1] counts bursts of k requests (the last cell: kBurstCells or more).
  static constexpr std::size_t kBurstCells = 8;
  std::vector<std::uint64_t> requestBursts = std::vector<std::uint64_t>(kBurstCells, 0);
  // Herding, thief side: every steal request as (10 ms bin since the common start, victim), up to
  // kMaxChoices; rank 0 finds per bin the most chosen victim over all ranks (herding()).
  static constexpr std::size_t kMaxChoices = 200000;
  std::vector<std::uint32_t> choiceBins, choiceVictims;
  std::uint64_t choicesDropped = 0;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(stealRequestsSent, stealsGranted, stealsRefused, requestsAnswered, requestsGranted, tasksSent, tasksReceived,
       bytesSent, bytesReceived, boardPublishes, boundPublishes, stopPublishes, waves, stealRoundTripUsTotal,
       commCpuSeconds, commWallSeconds, latencyUs, roundTripUs, hungerEpisodes, requestBursts, choiceBins,
       choiceVictims, choicesDropped);
  }
};

// The counters by name (snake_case), plus the mean steal round trip; how a report arranges them is
// the report's business (apps/common/src/report.cpp).
nlohmann::json toJson(const CommStats& s);

// Herding over every rank's counters: "bursts" (requestBursts summed over victims) and
// "share_to_most_chosen": of all steal requests, the share that went to the victim chosen most
// often in the same 10 ms (over all thieves), with the number of choices and bins it rests on.
nlohmann::json herding(const std::vector<const CommStats*>& ranks);

}  // namespace jackdaw::comm
