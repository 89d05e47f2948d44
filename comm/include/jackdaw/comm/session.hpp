// One rank's part in a distributed search: built from one configuration and the rank's LocalWork,
// it owns the load board, the victim policy and the comm thread, and at the end gathers one
// record per rank to rank 0, once.
//
//   comm::Session session(cfg, workers, work);      // collective over cfg.world
//   session.start();                                  // after rank 0 holds the root task
//   ... workers run; session.wake() / offerBound(b) / requestStop(r) from any thread ...
//   session.waitTermination();                        // global quiescence (or stop) on every rank
//   auto reports = session.gather(myShareBytes);      // rank 0: every rank's RankReport
//
// The search's share is opaque bytes here (the driver writes and reads them with wire.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/comm/board.hpp"
#include "jackdaw/comm/comm_stats.hpp"
#include "jackdaw/comm/comm_thread.hpp"
#include "jackdaw/comm/local_work.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/comm/steal_options.hpp"

namespace jackdaw::comm {

struct SessionConfig {
  MPI_Comm world = MPI_COMM_WORLD;
  BoundSense sense = BoundSense::Maximise;   // how the shared bound compares
  // The policy (a name in `policies`) and its constants, the seed its random choices start from
  // (seed ^ rank), how load records reach thieves (board.hpp) and how many a sample reads.
  StealOptions steal;
  const PolicyRegistry* policies = nullptr;  // null: PolicyRegistry::builtin()
  BoardTransport boardTransport = BoardTransport::Auto;  // windows, messages, or whichever MPI serves
  CommOptions comm{};
};

// What one rank reports after the search.
struct RankReport {
  int rank = 0;
  std::vector<std::byte> search;  // the driver's own share (result, worker counters)
  CommStats comm;
  nlohmann::json policy;          // VictimPolicy::stats()
};

class Session {
 public:
  Session(const SessionConfig& cfg, int workers, LocalWork& work);  // collective
  ~Session();  // collective (frees the board's window); aborts the job if the search still runs
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  const std::string& policyName() const noexcept { return policyName_; }
  const LoadBoard& board() const noexcept { return *board_; }

  void start();
  // Any thread, cheap: cut the comm thread's sleep short / spread a better bound / a stop.
  void wake() noexcept;
  void offerBound(std::int64_t v) noexcept;
  void requestStop(int reason) noexcept;
  // Any thread, one relaxed load: wake the comm thread if a thief rang this rank's doorbell.
  void pollDoorbell() noexcept;
  // A worker that reads the doorbell itself (doorbellCell) saw a ring: wake the comm thread to read
  // the request now, and yield the core it may share with it.
  void bellRang() noexcept;
  std::uint64_t* doorbellCell() const noexcept { return board_->doorbellCell(); }
  // Whether thieves ring the doorbell at all: asked for, and the board is a window
  // (forTransport in comm_options.hpp); without it the workers need not poll.
  bool doorbell() const noexcept { return doorbell_; }
  void waitTermination();

  // Collective, once, after waitTermination(): rank 0 receives every rank's report in rank
  // order, the other ranks an empty vector.
  std::vector<RankReport> gather(std::span<const std::byte> searchShare);
  // Collective: the lowest rank for which `mine` is true, or -1 if none is.
  int lowestRankWith(bool mine);
  // Collective: the largest `mine` of any rank.
  int highestOf(int mine);

 private:
  int rank_ = 0, size_ = 1;
  std::string policyName_;
  bool doorbell_ = true;
  MPI_Comm world_;
  std::unique_ptr<LoadBoard> board_;
  std::unique_ptr<LoadBoardView> view_;
  std::unique_ptr<VictimPolicy> policy_;
  std::unique_ptr<CommThread> comm_;
};

}  // namespace jackdaw::comm
