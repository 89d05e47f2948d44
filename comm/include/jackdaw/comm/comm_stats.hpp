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
  std::uint64_t commSleeps = 0;        // the comm thread's sleeps (each costs it ~15 µs of CPU on our VMs)
  std::uint64_t ownCores = 0;          // 1: every worker on this rank's node had a core of its own (node_cores.hpp)
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
  // Distributions in log2 cells of µs: cell b counts values in [2^b, 2^(b+1)) (cell 0 also < 1 µs,
  // the last cell everything above).
  static constexpr std::size_t kLog2Cells = 24;
  std::vector<std::uint64_t> roundTripLog2 = std::vector<std::uint64_t>(kLog2Cells, 0);  // steal round trips
  // Staleness, thief side: age of the victim's record (its publish time to the request) as this
  // rank's board had it when it sent the request (one host: one clock).
  std::vector<std::uint64_t> recordAgeLog2 = std::vector<std::uint64_t>(kLog2Cells, 0);
  // Staleness, victim side: requests whose thief's record of us promised work (queued > 0), and
  // how many of those we refused; requests sent on a record of 0 that we granted.
  std::uint64_t requestsPromised = 0, promisedRefused = 0, unpromisedGranted = 0;
  // The board's cost on this rank (LoadBoard counters) and the doorbell.
  double publishUsTotal = 0.0, fetchUsTotal = 0.0;
  std::uint64_t boardFetches = 0, fetchedRecords = 0, doorbellRings = 0;
  // Seeding (seed_tree.hpp), also counted among the steals above. Thief: its seed requests, whether
  // one brought work, and refusals that sent it on up the tree. Victim: seed requests held for
  // later, and the time they waited.
  std::uint64_t seedRequests = 0, seedsGranted = 0, seedsHeld = 0, seedRedirects = 0;
  double seedHoldUsTotal = 0.0;
  // Victim: steal requests held for a busy worker's split (CommOptions::stealHoldMax), how many of
  // those the split answered with work, and the time they waited.
  std::uint64_t stealsHeld = 0, heldGranted = 0;
  double stealHoldUsTotal = 0.0;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(stealRequestsSent, stealsGranted, stealsRefused, requestsAnswered, requestsGranted, tasksSent, tasksReceived,
       bytesSent, bytesReceived, boardPublishes, boundPublishes, stopPublishes, waves, stealRoundTripUsTotal,
       commCpuSeconds, commWallSeconds, latencyUs, roundTripUs, hungerEpisodes, requestBursts, choiceBins,
       choiceVictims, choicesDropped, roundTripLog2, recordAgeLog2, requestsPromised, promisedRefused,
       unpromisedGranted, publishUsTotal, fetchUsTotal, boardFetches, fetchedRecords, doorbellRings, seedRequests, seedsGranted, seedsHeld, seedHoldUsTotal, commSleeps, ownCores, seedRedirects, stealsHeld, heldGranted, stealHoldUsTotal);
  }
};

// The counters by name (snake_case), plus the mean steal round trip; how a report arranges them is
// the report's business (apps/common/src/report.cpp).
nlohmann::json toJson(const CommStats& s);

// Herding over every rank's counters: "bursts" (requestBursts summed over victims) and
// "share_to_most_chosen": of all steal requests, the share that went to the victim chosen most
// often in the same 10 ms (over all thieves), with the number of choices and bins it rests on.
nlohmann::json herding(const std::vector<const CommStats*>& ranks);

// The board over every rank: publish and fetch cost, staleness (record age at the request, share
// of promised requests refused) and the steal round-trip distribution, with medians.
nlohmann::json boardSummary(const std::vector<const CommStats*>& ranks);

// Adds every number of `from` into `into`, key by key: counters, arrays of counters element by
// element (a per-rank histogram) and float sums; means, finals and other arrays are left out. How
// a report totals the ranks' toJson() and policy stats() (the apps' --stats, jackdaw-sim).
void addCounters(nlohmann::json& into, const nlohmann::json& from);

// Adds v (µs) to a log2 distribution (CommStats::kLog2Cells); the median's cell as [lo, hi) µs.
void addLog2(std::vector<std::uint64_t>& cells, double us);
double log2MedianUpper(const std::vector<std::uint64_t>& cells);  // upper edge of the median's cell, 0 if empty

}  // namespace jackdaw::comm
