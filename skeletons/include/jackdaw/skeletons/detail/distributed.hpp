// Distributed search: a ParallelSearch on every rank, joined by the comm layer.
//
// Every rank runs the same skeleton on its own worker arena. Only rank 0 runs the seed (the root
// task); other ranks start empty and steal. The comm thread (comm/) sees this rank's search
// through SearchWork, the LocalWork adapter below: pool size, idle workers and work rate for the
// load board; the shallowest tasks, serialised, for thieves; stolen tasks injected into the pool;
// created/finished counters for the termination waves. A local incumbent improvement goes to every
// board; a remote one tightens the local incumbent. A stop (decision found, signal) reaches every
// rank. After global termination every rank's enumerator, best node and statistics are gathered
// to rank 0, which combines them.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/comm/board.hpp"
#include "jackdaw/comm/comm_thread.hpp"
#include "jackdaw/comm/failure.hpp"
#include "jackdaw/comm/gather.hpp"
#include "jackdaw/comm/local_work.hpp"
#include "jackdaw/comm/peer_delays.hpp"
#include "jackdaw/comm/policies/policy_stats.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/core/result.hpp"
#include "jackdaw/skeletons/detail/serialise.hpp"

namespace jackdaw {

// How a search spans ranks (set by the app layer; absent or size 1 = one rank, no comm thread).
struct DistributedOptions {
  MPI_Comm world = MPI_COMM_WORLD;
  int rank = 0;
  int size = 1;
  std::string policy = "random";
  comm::PolicyContext policyContext{};  // constants from the command line; rank, board, … filled in here
  comm::CommOptions comm{};
  nlohmann::json* report = nullptr;     // rank 0: the "distributed" section of --stats
};

namespace detail {

// The objective as the board's int64 cell (doubles keep their order through encodeDouble).
template <class Obj>
std::int64_t encodeObjective(const Obj& o) {
  if constexpr (std::is_floating_point_v<Obj>) return comm::encodeDouble(static_cast<double>(o));
  else return static_cast<std::int64_t>(o);
}
template <class Obj>
Obj decodeObjective(std::int64_t v) {
  if constexpr (std::is_floating_point_v<Obj>) return static_cast<Obj>(comm::decodeDouble(v));
  else return static_cast<Obj>(v);
}
template <class Better>
comm::BoundSense boundSense() {
  if constexpr (std::is_same_v<Better, std::less<>>) return comm::BoundSense::Minimise;
  else {
    static_assert(std::is_same_v<Better, std::greater<>>,
                  "distributed search supports Better = std::greater<> (maximise) or std::less<> (minimise)");
    return comm::BoundSense::Maximise;
  }
}

// The comm layer's view of this rank's search (every call comes from the comm thread).
template <class Search>
class SearchWork final : public comm::LocalWork {
 public:
  using TaskT = typename Search::TaskT;
  using Obj = typename Search::T::Obj;

  SearchWork(Search& s, bool holdsSeed) : s_(s), seedPending_(holdsSeed ? 1 : 0) {}
  void seedDone() { seedPending_.store(0, std::memory_order_release); seedFinished_.store(1, std::memory_order_release); }

  std::size_t queuedTasks() override { return s_.pool().size(); }
  int runningTasks() override { return s_.runtime().runningTasks(); }
  int idleWorkers() override { return s_.runtime().idleWorkers(); }
  double workRate() override { return s_.runtime().meanWorkRate(); }
  bool needsWork() override {
    return !s_.stopFlag().requested() && seedPending_.load(std::memory_order_acquire) == 0 &&
           s_.runtime().idleWorkers() > 0 && s_.pool().size() == 0;
  }

  std::vector<std::byte> giveAway(bool half, std::uint32_t& count) override {
    count = 0;
    if (s_.stopFlag().requested()) return {};
    // Tasks our own idle workers are about to take are not ours to give: an idle rank that handed
    // a just-received task straight on let two idle ranks bounce tasks between them thousands of
    // times (seen as >12,000 granted steals in a 2-rank NS run that took 1.5x as long).
    const std::size_t queued = s_.pool().size();
    const auto mine = static_cast<std::size_t>(std::max(0, s_.runtime().idleWorkers()));
    if (queued <= mine) {
      if (queued == 0) s_.requestSplit();  // stack stealing: a busy worker splits at its next node
      return {};
    }
    const std::size_t spare = queued - mine;
    std::ostringstream os;
    {
      cereal::BinaryOutputArchive ar(os);
      const std::size_t want = half ? std::max<std::size_t>(1, spare / 2) : 1;
      while (count < want) {
        auto t = s_.stealShallowest();
        if (!t) break;
        transfer(ar, t->node);
        ar(t->depth, t->priority);
        ++count;
      }
    }
    if (count == 0) return {};
    return toBytes(os.str());
  }

  void receive(std::span<const std::byte> bytes, std::uint32_t count) override {
    std::istringstream is(fromBytes(bytes));
    cereal::BinaryInputArchive ar(is);
    for (std::uint32_t i = 0; i < count; ++i) {
      TaskT t;
      transfer(ar, t.node);
      ar(t.depth, t.priority);
      s_.inject(std::move(t));
    }
  }

  // The seed (rank 0's root work) counts as one task until it has pushed its children.
  std::uint64_t tasksCreated() override { return s_.tasksCreated() + (holdsSeed() ? 1 : 0); }
  std::uint64_t tasksFinished() override {
    return s_.tasksFinished() + seedFinished_.load(std::memory_order_acquire);
  }

  void onBound(std::int64_t b) override { s_.incumbent().offerBound(decodeObjective<Obj>(b)); }
  void onStop(int reason) override { s_.stopFlag().request(static_cast<StopReason>(reason)); }

 private:
  bool holdsSeed() const { return seedPending_.load(std::memory_order_acquire) + seedFinished_.load(std::memory_order_acquire) > 0; }
  Search& s_;
  std::atomic<int> seedPending_;
  std::atomic<int> seedFinished_{0};
};

// One rank's share of the result, as bytes for the gather.
template <class Result>
std::vector<std::byte> packResult(const Result& r, const nlohmann::json& extra) {
  std::ostringstream os;
  {
    cereal::BinaryOutputArchive ar(os);
    auto e = r.enumerator;
    transfer(ar, e);
    const bool has = r.best.has_value() && r.objective.has_value();
    ar(has);
    if (has) {
      auto node = *r.best;
      auto obj = *r.objective;
      transfer(ar, obj);
      transfer(ar, node);
    }
    ar(r.stats.nodes, r.stats.prunes, r.stats.backtracks, r.stats.maxDepth);
    ar(extra.dump());
  }
  return toBytes(os.str());
}

// Runs the search over every rank of opts.world; rank 0 returns the combined result, other
// ranks their own share (only rank 0 reports).
template <class Search, class Seed>
typename Search::Result runDistributed(Search& s, Seed& seed, const DistributedOptions& opts) {
  using T = typename Search::T;
  using Obj = typename T::Obj;
  const auto t0 = std::chrono::steady_clock::now();
  auto& rt = s.runtime();
  rt.hold();

  comm::LoadBoard board(opts.world, boundSense<typename T::Better>());
  comm::PeerDelays delays(opts.size);
  comm::PolicyContext pc = opts.policyContext;
  pc.rank = opts.rank;
  pc.size = opts.size;
  pc.workers = rt.workers();
  pc.board = &board;
  pc.delays = &delays;
  auto policy = comm::makePolicy(opts.policy, pc);
  SearchWork<Search> work(s, opts.rank == 0);
  comm::CommThread comm(opts.world, board, work, *policy, delays, opts.comm);  // collective
  if (s.incumbent().hasBound()) comm.offerBound(encodeObjective(s.incumbent().bound()));
  s.incumbent().setListener([&comm](const Obj& o) { comm.offerBound(encodeObjective(o)); });
  s.attachComm(&comm);
  comm.start();
  std::thread releaser([&] {
    comm.waitTermination();
    rt.release();
  });
  try {
    rt.runAndWait([&] {
      if (opts.rank == 0) {
        seed();
        work.seedDone();
        comm.wake();
      }
    });
  } catch (const std::exception& e) {
    comm::abortJob(opts.rank, e.what(), 1);  // other ranks cannot be asked to agree mid-search
  }
  releaser.join();
  s.attachComm(nullptr);
  s.incumbent().setListener(nullptr);
  rt.finishAccounts();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto mine = s.collect(seconds);

  // Per-rank numbers for --stats, then everything to rank 0.
  nlohmann::json extra;
  double busy = 0, idle = 0;
  nlohmann::json workers = nlohmann::json::array();
  for (const auto& w : s.reports()) {
    busy += w.busyUs;
    idle += w.idleUs;
    workers.push_back({{"worker", w.worker}, {"tasks", w.tasks}, {"nodes", w.stats.nodes}, {"busy_us", w.busyUs},
                       {"idle_us", w.idleUs}, {"work_rate", w.workRate}});
  }
  extra = {{"rank", opts.rank}, {"nodes", mine.stats.nodes}, {"busy_us", busy}, {"idle_us", idle}, {"workers", workers}};
  const auto blobs = comm::gatherBlobs(opts.world, packResult(mine, extra));
  const auto commJson = comm::gatherStats(opts.world, comm.stats());
  const auto policyJson = comm::gatherPolicyStats(opts.world, *policy);
  if (opts.rank != 0) return mine;

  typename Search::Result total;
  total.stop = mine.stop;
  total.seconds = seconds;
  nlohmann::json perRank = nlohmann::json::array();
  for (const auto& b : blobs) {
    std::istringstream is(fromBytes(b));
    cereal::BinaryInputArchive ar(is);
    typename T::Enum e{};
    transfer(ar, e);
    total.enumerator.combine(e);
    bool has = false;
    ar(has);
    if (has) {
      Obj obj{};
      typename T::Node node{};
      transfer(ar, obj);
      transfer(ar, node);
      if (!total.objective || typename T::Better{}(obj, *total.objective)) {
        total.objective = obj;
        total.best = std::move(node);
      }
    }
    SearchStats st;
    ar(st.nodes, st.prunes, st.backtracks, st.maxDepth);
    total.stats += st;
    std::string ex;
    ar(ex);
    perRank.push_back(nlohmann::json::parse(ex));
  }
  if (opts.report) {
    // Comm counters per rank, beside the search's own; names the campaign report reads.
    nlohmann::json totals = {{"nodes", 0}, {"busy_us", 0.0}, {"idle_us", 0.0}};
    for (std::size_t r = 0; r < perRank.size(); ++r) {
      auto& pr = perRank[r];
      const auto& c = commJson["ranks"][r];
      pr["steal_requests"] = c.value("steal_requests_sent", 0);
      pr["steals_granted"] = c.value("steals_granted", 0);
      pr["steals_failed"] = c.value("steals_refused", 0);
      pr["comm"] = c;
      totals["nodes"] = totals["nodes"].get<std::uint64_t>() + pr["nodes"].get<std::uint64_t>();
      totals["busy_us"] = totals["busy_us"].get<double>() + pr["busy_us"].get<double>();
      totals["idle_us"] = totals["idle_us"].get<double>() + pr["idle_us"].get<double>();
    }
    const auto& ct = commJson["totals"];
    totals["steal_requests"] = ct.value("steal_requests_sent", 0);
    totals["steals_granted"] = ct.value("steals_granted", 0);
    totals["steals_failed"] = ct.value("steals_refused", 0);
    totals["comm"] = ct;
    *opts.report = {{"ranks", opts.size}, {"policy_name", opts.policy}, {"per_rank", perRank}, {"totals", totals},
                    {"policy", policyJson}};
  }
  return total;
}

}  // namespace detail
}  // namespace jackdaw
