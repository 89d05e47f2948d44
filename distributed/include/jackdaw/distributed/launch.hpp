// Runs a multi-threaded skeleton on every rank of an MPI job: pass a Launch where a skeleton takes
// its launch, on every rank, with the same arguments.
//
//   jackdaw::distributed::Report report;                     // rank 0: per-rank numbers
//   jackdaw::distributed::Launch over({.steal = {.policy = "performance"}}, &report);
//   auto r = jackdaw::budget::search<M, K>(space, root, params, stop, opts, over);
//   // rank 0: the whole result; other ranks: their own share
//
// Every rank builds the skeleton's search as on one process; the Launch wraps it from outside:
// only rank 0 runs the seed (the root task), the others start empty and steal. A comm::Session
// carries work, bound and stop between ranks; the search tells it what happens through a
// SearchObserver (pool ran dry → wake the comm thread; better incumbent → the board's bound; stop
// → every rank). After global termination one gather brings every rank's share to rank 0.
//
// If model code throws on some rank, that rank's search stops with StopReason::Failed, the stop
// reaches every rank, the search terminates normally everywhere, and then rank 0 throws
// SearchFailed("rank r: …") naming the lowest failing rank while the others throw
// FailedElsewhere: one message, a failure on every rank, no hang and no MPI_Abort.
//
// With a Checkpointing, every rank continues its saved records instead of the seed (resume), and
// an interruption leaves each rank's share and unexplored work as its saved record (keep); the
// caller writes and reads the files (app/checkpoint.hpp).
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/comm/failure.hpp"
#include "jackdaw/comm/session.hpp"
#include "jackdaw/comm/wire.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/search_observer.hpp"
#include "jackdaw/core/worker_report.hpp"
#include "jackdaw/distributed/objective.hpp"
#include "jackdaw/distributed/saved_work.hpp"
#include "jackdaw/distributed/search_work.hpp"
#include "jackdaw/distributed/test_hooks.hpp"

namespace jackdaw::distributed {

// One rank's numbers, as rank 0 sees them after the search.
struct RankSummary {
  int rank = 0;
  SearchStats stats;
  std::vector<WorkerReport> workers;
  comm::CommStats comm;
  nlohmann::json policy;  // the policy's own counters
};

struct Report {
  std::string policy;
  std::vector<RankSummary> ranks;  // rank order
  double setupSeconds = 0;         // rank 0: board windows, session collectives, comm thread start (not in the search's time)
  // What carried the load board: "rma" (with MPI's name for the window, if any) or "messages".
  std::string boardTransport, boardWindow;
};

// One rank's share of the result and its worker counters, in the wire format. One serialize for
// both directions.
template <class Result>
struct RankShare {
  Result result;
  std::vector<WorkerReport> workers;
  std::string error;  // what the model's exception on this rank says (modelThrew), if it threw

  template <class Archive>
  void serialize(Archive& ar) {
    ar(error);
    transferShare(ar, result);
    std::uint64_t n = workers.size();
    ar(n);
    workers.resize(n);
    for (auto& w : workers) comm::wire::transfer(ar, w);
  }
};

// Checkpoint and resume as the search sees them (the files are the caller's business).
struct Checkpointing {
  bool resume = false;                           // every rank: continue saved work, run no seed
  std::vector<std::vector<std::byte>> from;      // the saved records this rank continues (any number)
  bool keep = false;                             // if an interruption stops the search, save it:
  std::optional<std::vector<std::byte>> saved;   //   out: this rank's record (SavedWork)
  std::uint64_t savedTasks = 0;                  //   out: how many tasks it holds
  std::uint64_t savedNodes = 0;                  //   out: the nodes its share counted
};

class Launch {
 public:
  // Without MPI initialised (a program that never started it) this is a one-process launch.
  // With `cp`, the launch continues saved work (cp->resume) and/or saves the work an interruption
  // cuts short (cp->keep); see Checkpointing. `test`: faults a test injects (test_hooks.hpp), null
  // in production.
  explicit Launch(comm::SessionConfig cfg, Report* report = nullptr, Checkpointing* cp = nullptr,
                  const TestHooks* test = nullptr)
      : cfg_(std::move(cfg)), report_(report), cp_(cp), test_(test) {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (initialised) MPI_Comm_size(cfg_.world, &size_);
  }

  // On a one-rank communicator the search simply runs here: no board, no comm thread.
  bool spansProcesses() const { return size_ > 1; }

  template <class Search, class Seed>
  typename Search::Result operator()(Search& s, Seed&& seed) const {
    using Result = typename Search::Result;
    using Saved = SavedWork<Result, typename Search::TaskT>;
    // An observer records the task tree (--trace): it gets each task's size as a steal sends it.
    if (s.wantsTaskTree())
      s.setTaskSizer([](const typename Search::TaskT& t) {
        TaskWire w = taskWire(t);
        // A model may name a task by less than all its bytes (fields that depend on the run's
        // history, such as a bound, would keep a trace's levels from matching the same task).
        using Model = typename Search::Model;
        if constexpr (requires { Model::identity(t.node); }) w.key = Model::identity(t.node);
        return typename Search::Wire{w.bytes, w.key};
      });
    // On resume every rank starts from its saved records instead of the seed.
    const bool resume = cp_ && cp_->resume;
    Saved start;
    if (resume) {
      for (const auto& bytes : cp_->from) {
        Saved w = decodeSaved<Result, typename Search::TaskT>(bytes);
        addShare<typename Search::T::Better>(start.share, std::move(w.share));
        std::move(w.tasks.begin(), w.tasks.end(), std::back_inserter(start.tasks));
      }
      start.share.stop = StopReason::None;  // whether this run is whole is its own to say
      if (start.share.best) s.adoptIncumbent(*start.share.best, *start.share.objective);
    }
    if (cp_ && cp_->keep) s.keepUnexplored();
    auto begin = [&] {
      if (resume) s.pushAll(std::move(start.tasks));
      else seed();
    };
    if (size_ == 1) {
      Result r;
      try {
        r = s.run(begin);
      } catch (const SearchFailed& e) {
        throw SearchFailed(std::string("rank 0: ") + e.what());
      }
      settle(s, r, std::move(start.share), s.stopFlag().reason());
      return r;
    }
    return spanning(s, begin, resume, std::move(start.share));
  }

 private:
  // This rank's share gains what it continued from; if an interruption stopped the search under
  // a checkpoint, the share and the unexplored work become this rank's saved record. `reason` is
  // the one spanning() made every rank agree on, not the flag read again: a checkpoint timer may
  // still raise the flag on one rank after the agreement, and then that rank alone would save and
  // wait in the checkpoint's collectives for ranks that had ended (a hang, 1 run in ~70 under load).
  template <class Search>
  void settle(Search& s, typename Search::Result& share, typename Search::Result&& continued,
              StopReason reason) const {
    addShare<typename Search::T::Better>(share, std::move(continued));
    if (!cp_ || !cp_->keep || reason != StopReason::Interrupted) return;
    SavedWork<typename Search::Result, typename Search::TaskT> w{share, s.takeUnexplored()};
    cp_->savedTasks = w.tasks.size();
    cp_->savedNodes = w.share.stats.nodes;
    cp_->saved = encodeSaved(w);
  }

  template <class Search, class Begin>
  typename Search::Result spanning(Search& s, Begin& begin, bool resume, typename Search::Result&& continued) const {
    using T = typename Search::T;
    using Result = typename Search::Result;
    int rank = 0;
    MPI_Comm_rank(cfg_.world, &rank);
    const auto t0 = std::chrono::steady_clock::now();
    auto& rt = s.runtime();
    rt.hold();  // the arena stays up while this rank has no work, until global termination

    const bool seeds = resume || rank == 0;  // a resumed search starts on every rank
    SearchWork<Search> work(s, seeds);
    comm::SessionConfig cfg = cfg_;
    cfg.sense = boundSense<typename T::Better>();
    std::unique_ptr<comm::Session> opened;
    try {
      opened = std::make_unique<comm::Session>(cfg, rt.workers(), work);  // collective
    } catch (const comm::BoardUnavailable& e) {
      rt.release();  // every rank got the same answer from MPI: one message, from rank 0
      if (rank == 0) throw SearchFailed(e.what());
      throw FailedElsewhere();
    }
    comm::Session& session = *opened;

    // The search tells the session what happens, through an observer.
    struct Bridge final : SearchObserver {
      Bridge(comm::Session& se, Search& sr, unsigned bellNodes) : session(se), search(sr), doorbellNodes(bellNodes) {}
      void poolRanDry() override { session.wake(); }  // this rank may need work: steal now
      void splitForThief() override { session.wake(); }  // a held request can be answered
      // A thief rang: the comm thread answers now rather than after its sleep. A search that splits
      // for thieves reads the bell at its hunger checks (watchBell) and splits before waking it;
      // another is pulsed to poll it.
      void bellRang() override { session.bellRang(); }
      unsigned pulseEvery() const override { return doorbellNodes; }
      void pulse() override { session.pollDoorbell(); }
      void stopRequested(StopReason r, int) override { session.requestStop(static_cast<int>(r)); }
      void incumbentImproved(int) override { session.offerBound(encodeObjective(search.incumbent().bound())); }
      comm::Session& session;
      Search& search;
      unsigned doorbellNodes;  // 0: no pulse (--doorbell off, or the board on messages)
    } bridge(session, s, session.doorbell() && !s.splitsForThieves() ? cfg.comm.doorbellNodes : 0);
    if (session.doorbell() && s.splitsForThieves()) s.watchBell(session.doorbellCell());
    s.observe(&bridge);
    if (s.incumbent().hasBound()) session.offerBound(encodeObjective(s.incumbent().bound()));

    session.start();
    // The search's time starts here: the board's windows, the collectives and the comm thread's
    // start are set-up, reported apart (Report::setupSeconds).
    const auto setupEnd = std::chrono::steady_clock::now();
    const double setupSeconds = std::chrono::duration<double>(setupEnd - t0).count();
    std::thread releaser([&] {
      session.waitTermination();
      rt.release();
    });
    try {
      rt.runAndWait([&] {
        if (seeds) {
          s.runSeed(begin);  // a throwing seed fails the search like a throwing task
          work.seedDone();
          session.wake();
        }
      });
    } catch (const std::exception& e) {
      comm::abortJob(rank, e.what(), 1);  // the runtime itself failed: other ranks cannot be asked to agree
    }
    releaser.join();
    s.forget(&bridge);
    // Termination can be decided while a stop (a timer, a signal) is still on its way to another
    // rank: agree on the strongest reason, so that under a checkpoint every rank saves or none does.
    const int agreed = session.highestOf(static_cast<int>(s.stopFlag().reason()));
    s.stopFlag().request(static_cast<StopReason>(agreed));
    if (cp_ && cp_->keep && test_ && test_->stopAfterAgreementRank == rank) s.stopFlag().request(StopReason::Interrupted);
    rt.finishAccounts();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - setupEnd).count();

    const auto error = s.error();
    RankShare<Result> mine{s.collect(seconds), s.reports(), error ? modelThrew(error) : std::string()};
    if (!error) settle(s, mine.result, std::move(continued), static_cast<StopReason>(agreed));
    std::vector<std::byte> bytes;
    {
      comm::wire::Writer w(bytes);
      w(mine);
    }
    const auto reports = session.gather(bytes);
    const int failed = session.lowestRankWith(error != nullptr);
    if (failed >= 0 && rank != 0) throw FailedElsewhere();
    if (rank != 0) return std::move(mine.result);

    Result total;
    total.seconds = seconds;
    if (report_)
      *report_ = Report{session.policyName(), {}, setupSeconds, comm::boardTransportName(session.board().transport()),
                        session.board().windowName()};
    for (const auto& rep : reports) {
      RankShare<Result> share;
      comm::wire::Reader(rep.search)(share);
      if (rep.rank == failed)
        throw SearchFailed("rank " + std::to_string(failed) + ": " + share.error);
      if (report_)
        report_->ranks.push_back({rep.rank, share.result.stats, std::move(share.workers), rep.comm, rep.policy});
      // The stop reason that stands is the highest any rank reports (each rank has already turned
      // an interruption that cut nothing short into a whole result).
      addShare<typename T::Better>(total, std::move(share.result));
    }
    return total;
  }

  comm::SessionConfig cfg_;
  Report* report_;
  Checkpointing* cp_;
  const TestHooks* test_;
  int size_ = 1;
};

}  // namespace jackdaw::distributed
