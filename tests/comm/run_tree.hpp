// One distributed run of the synthetic tree (tree_work.hpp): all work starts on rank 0, the comm
// layer spreads it, and rank 0 gets the gathered per-id hit counts, sums and comm statistics.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "jackdaw/comm/session.hpp"
#include "random_stalls.hpp"
#include "tree_work.hpp"

namespace jackdaw::comm::testing {

struct TreeRun {
  std::uint64_t n = 0;
  std::vector<std::uint32_t> hits;  // rank 0: times each id ran, summed over ranks
  std::uint64_t idSum = 0, processed = 0;
  nlohmann::json stats;             // rank 0: {"ranks": [comm counters…], "totals": {summed}}
  nlohmann::json policy;            // rank 0: every rank's policy counters
  std::int64_t lastBound = 0;       // this rank's view at the end
  int stopReason = 0;               // this rank's view at the end
};

struct TreeConfig {
  std::uint64_t n = 2000, branching = 3;
  int workers = 2;
  unsigned spinNs = 2000;
  CommOptions opts{};
  std::uint64_t seed = 1;           // the policies' and the stalls' random streams
  unsigned stallMaxUs = 0;          // > 0: comm threads stall at random for up to this (random_stalls.hpp)
  std::string policy = "random";
  const PolicyRegistry* policies = nullptr;  // null: the built-in policies
  BoardScheme board = BoardScheme::All;
  int boardSample = 4;
  int stopFromRank = -1;            // that rank requests a stop right after start
  int stopReason = 1;               // … with this reason
  int secondStopFromRank = -1;      // and this rank, also before start, with secondStopReason
  int secondStopReason = 2;
  bool offerBounds = false;         // every rank offers bound 100 + rank
};

// Every rank's comm counters (comm::toJson) and their sums.
inline nlohmann::json commJson(const std::vector<RankReport>& reports) {
  if (reports.empty()) return {};
  nlohmann::json ranks = nlohmann::json::array(), totals = nlohmann::json::object();
  for (const auto& r : reports) {
    const nlohmann::json j = toJson(r.comm);
    for (const auto& [k, v] : j.items())
      if (v.is_number()) totals[k] = totals.value(k, 0.0) + v.get<double>();
    ranks.push_back(j);
  }
  std::vector<const CommStats*> comms;
  for (const auto& r : reports) comms.push_back(&r.comm);
  return {{"ranks", ranks}, {"totals", totals}, {"herding", herding(comms)}};
}

inline TreeRun runTree(const TreeConfig& cfg) {
  MPI_Comm world = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  TreeRun out;
  out.n = cfg.n;
  TreeWork work(cfg.n, cfg.branching, cfg.workers, cfg.spinNs);
  {
    SessionConfig sc;
    sc.world = world;
    sc.steal = {cfg.policy, {}, cfg.seed, cfg.board, cfg.boardSample};
    sc.policies = cfg.policies;
    sc.comm = cfg.opts;
    RandomStalls stalls(cfg.stallMaxUs, cfg.seed, rank);
    if (cfg.stallMaxUs > 0) sc.comm.events = &stalls;
    Session session(sc, cfg.workers, work);
    work.setOnIdle([&session] { session.wake(); });
    if (rank == 0) work.injectRoot();
    // Offered before start so the first loop publishes it before the first termination wave.
    if (cfg.offerBounds) session.offerBound(100 + rank);
    // Stops requested before start are published before the first termination wave, so every
    // rank must hear them (their arrival order at each rank is up to the network).
    if (rank == cfg.secondStopFromRank) session.requestStop(cfg.secondStopReason);
    session.start();
    if (rank == cfg.stopFromRank) session.requestStop(cfg.stopReason);
    session.waitTermination();
    work.shutdown();
    work.setOnIdle(nullptr);
    const auto reports = session.gather({});
    out.stats = commJson(reports);
    for (const auto& r : reports) out.policy.push_back(r.policy);
  }
  std::vector<std::uint32_t> mine(cfg.n);
  for (std::uint64_t i = 0; i < cfg.n; ++i) mine[i] = work.hits()[i].load();
  out.hits.resize(rank == 0 ? cfg.n : 0);
  MPI_Reduce(mine.data(), out.hits.data(), static_cast<int>(cfg.n), MPI_UINT32_T, MPI_SUM, 0, world);
  std::uint64_t local[2] = {work.idSum(), work.processed()}, total[2] = {0, 0};
  MPI_Reduce(local, total, 2, MPI_UINT64_T, MPI_SUM, 0, world);
  out.idSum = total[0];
  out.processed = total[1];
  out.lastBound = work.lastBound();
  out.stopReason = work.stopReason();
  return out;
}

// Rank 0's checks of a complete run: every task exactly once, the closed forms, stats that add up.
inline void expectComplete(const TreeRun& r, int size) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  std::uint64_t wrong = 0;
  for (auto h : r.hits) wrong += (h != 1);
  EXPECT_EQ(wrong, 0u) << "tasks not processed exactly once";
  EXPECT_EQ(r.processed, r.n);
  EXPECT_EQ(r.idSum, r.n * (r.n - 1) / 2);
  const auto& t = r.stats["totals"];
  ASSERT_EQ(r.stats["ranks"].size(), static_cast<std::size_t>(size));
  EXPECT_EQ(t["tasks_sent"], t["tasks_received"]);
  EXPECT_EQ(t["bytes_sent"], t["bytes_received"]);
  EXPECT_EQ(t["steals_granted"], t["requests_granted"]);
  EXPECT_EQ(t["steal_requests_sent"], t["requests_answered"]);
  EXPECT_EQ(t["steal_requests_sent"].get<double>(), t["steals_granted"].get<double>() + t["steals_refused"].get<double>());
  EXPECT_EQ(t["bytes_sent"].get<double>(), 8.0 * t["tasks_sent"].get<double>());
  // Every answered request was either promised work by the thief's board or not.
  EXPECT_LE(t["promised_refused"].get<double>(), t["requests_promised"].get<double>());
  EXPECT_LE(t["requests_promised"].get<double>() + t["unpromised_granted"].get<double>(),
            t["requests_answered"].get<double>());
}

}  // namespace jackdaw::comm::testing
