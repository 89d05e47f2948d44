#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "jackdaw/comm/steal_protocol.hpp"
#include "job.hpp"
#include "workers.hpp"

namespace jackdaw::sim::detail {

// A rank's comm thread in simulated time: the runtime's steal protocol (comm/steal_protocol.hpp),
// driven over SimGrid mailboxes. What is the simulator's own is the transport: when a turn starts
// (MPI's yields, late wake-ups), what the comm thread's CPU costs, how messages and board records
// travel, and the incumbent replay's bound exchange.
class CommActor final : public comm::StealPort {
 public:
  CommActor(Job& job, Rank& r) : job_(job), r_(r), o_(job.cfg.comm) {}

  void run() {
    std::unique_lock lock(*r_.mutex);
    lock_ = &lock;
    bool slept = false;  // this turn follows a sleep
    while (!job_.done) {
      startTurn(lock, slept);
      slept = false;
      if (job_.done) break;
      const std::uint64_t now = nowNs();
      bool active = handleInbox(lock);
      exchangeBound();
      active |= protocol_->serveHeld(job_.done);
      active |= protocol_->onTurn(now, r_.needsWork());
      maybePublish(now);
      if (auto peer = protocol_->probeDue(now)) probe(*peer, lock);
      protocol_->refreshIfDue(now);
      if (job_.done) break;
      const auto sleep = protocol_->afterTurn(active, r_.idle, false);
      if (!sleep) continue;
      slept = !r_.woken;
      if (slept) {
        r_.commWake->wait_for(lock, 1e-6 * static_cast<double>(sleep->count()));
        ++r_.stats.commSleeps;
        cpu(lock, job_.cfg.platform.wakeCpuUs);  // what the sleep and the wake-up cost its CPU
      }
      r_.woken = false;
    }
    lock_ = nullptr;
  }

  // ---- the protocol's port ----
  std::uint64_t nowNs() override { return detail::nowNs(); }
  bool stopped() override { return job_.done; }
  bool holdsWork() override { return r_.running > 0 || r_.pool.size() > 0; }
  // Hunger mode: a busy worker's private stack splits for a refused thief (take() below).
  bool splitsForThieves() override { return r_.split && r_.running > 0; }

  // As SearchWork::giveAway: tasksPerSteal of what the request may have, shallowest first. Under
  // hunger splitting, nothing to give and nothing pooled asks a busy worker to split (the engine's
  // requestSplit); the thief's next request may find it. With --split-remote direct (not the
  // runtime's rule: a what-if) a busy worker's split goes into this answer instead, its hunger
  // check's wait (a node or so) left out.
  std::uint32_t take(int /*thief*/, const comm::StealRequest& q) override {
    answer_.clear();
    const std::size_t spare = r_.spareFor(q.seed);
    if (spare == 0 && r_.split && job_.cfg.splitDirect && r_.split->donor() >= 0)
      answer_ = splitFor(job_, r_, r_.split->donor(), true);
    else if (spare == 0 && r_.split && r_.pool.size() == 0) {
      r_.remoteHunger = true;
      r_.hungerChanged();
    }
    const std::size_t want = comm::tasksPerSteal(spare, q.half);
    for (std::size_t i = 0; i < want; ++i) answer_.push_back(r_.pool.takeShallowest());
    if (!answer_.empty()) r_.hungerChanged();
    return static_cast<std::uint32_t>(answer_.size());
  }

  void sendAnswer(int thief, const comm::StealRequest& q, std::uint32_t count, std::optional<int> redirect) override {
    auto* a = new Msg{Msg::Reply, r_.id, q.id, false, 0, {}, q.seed};
    double bytes = kReplyHeader;
    if (count > 0) {
      a->tasks = std::move(answer_);
      for (std::uint64_t id : a->tasks) bytes += job_.task(id).bytes;
      r_.stats.bytesSent += static_cast<std::uint64_t>(bytes - kReplyHeader);
    }
    answer_.clear();
    if (redirect) {
      a->redirect = *redirect;
      bytes += 4;
    }
    job_.ranks[static_cast<std::size_t>(thief)]->box->put_init(a, static_cast<std::uint64_t>(bytes))->detach();
  }

  void sendRequest(int victim, const comm::StealRequest& q, bool /*ring*/) override {
    auto* m = new Msg{Msg::Request, r_.id, q.id, q.seen, q.queued, {}, q.seed};
    m->half = q.half;
    job_.ranks[static_cast<std::size_t>(victim)]->box->put_init(m, static_cast<std::uint64_t>(kRequestBytes))->detach();
  }

  // The policy's choice and refresh may sleep (a read at the owners, scheme sample): the rank is
  // not held meanwhile.
  void policyCallBegins() override {
    if (lock_) lock_->unlock();
  }
  void policyCallEnds() override {
    if (lock_) lock_->lock();
  }

 private:
  // A turn starts in MPI (a probe for messages). When Open MPI yields (more of the job's ranks on
  // the host than cores) and every core runs a worker, the yield hands the core to a worker and the
  // turn starts only when that worker's time slice ends (the constant also holds the late wake-up
  // that follows a yield: PlatformSpec::yieldSliceUs). Otherwise a turn after a sleep starts as
  // late as a wake-up runs (PlatformSpec::wakeLateUs).
  void startTurn(std::unique_lock<sg4::Mutex>& lock, bool afterSleep) {
    const auto& p = job_.cfg.platform;
    const bool yields = r_.mpiYields && *r_.hostRunning >= r_.host->get_core_count();
    const double waitUs = yields ? p.yieldSliceUs : afterSleep ? p.wakeLateUs : 0.0;
    if (waitUs <= 0) return;
    lock.unlock();
    sg4::this_actor::sleep_for(1e-6 * waitUs);
    lock.lock();
    if (yields) ++yields_;
  }

  // The comm actor's CPU on the host's shared cores, without holding the rank.
  void cpu(std::unique_lock<sg4::Mutex>& lock, double us) {
    if (us <= 0) return;
    lock.unlock();
    execNs(us * 1e3);
    lock.lock();
  }

  bool handleInbox(std::unique_lock<sg4::Mutex>& lock) {
    bool any = false;
    while (!r_.inbox.empty()) {
      std::unique_ptr<Msg> m(r_.inbox.front());
      r_.inbox.pop_front();
      any = true;
      cpu(lock, job_.cfg.commCostUs);
      if (m->kind == Msg::Request) {
        comm::StealRequest q;
        q.half = m->half;
        q.seed = m->seed;
        q.seen = m->seen;
        q.queued = m->promised;
        q.id = m->id;
        protocol_->onRequest(m->from, q, job_.done);
        continue;
      }
      std::optional<int> redirect;
      if (m->redirect >= 0) redirect = m->redirect;
      protocol_->onReply(m->from, static_cast<std::uint32_t>(m->tasks.size()), redirect, job_.done);
      for (std::uint64_t id : m->tasks) {
        r_.stats.bytesReceived += job_.task(id).bytes;
        pushTask(job_, r_, id, false);
      }
    }
    return any;
  }

  // The board record: the protocol decides when; the simulated board carries it (every window a
  // network delay later under scheme all, 4·(P−1) puts; at its owner under scheme sample).
  void maybePublish(std::uint64_t now) {
    comm::RankRecord rec;
    rec.queued = r_.stealable();
    const bool pushes = job_.pushes();
    if (!protocol_->publishDue(now, rec.queued, pushes)) return;
    rec.workRate = r_.workRate();
    rec.pooled = r_.pool.size();
    rec.running = static_cast<std::uint64_t>(r_.running);
    rec.idle = static_cast<std::uint64_t>(r_.idle);
    rec.seq = 2 * (publishes_ + 1);
    rec.timeNs = now;
    if (!protocol_->offerRecord(now, rec)) return;
    ++publishes_;
    job_.board->publish(r_.id, rec);
    ++r_.stats.boardPublishes;
    if (pushes) {
      const std::uint64_t peers = job_.ranks.size() - 1;
      r_.boardMessages += 4 * peers;
      r_.boardBytes += static_cast<std::uint64_t>(peers * (kRecordBytes + 2 * 8));
    }
  }

  // A better bound found on this rank goes to every rank's board (one accumulate each) at this
  // turn; a bound that has reached this rank's board is taken at this turn (incumbent replay).
  void exchangeBound() {
    if (job_.trees.size() < 2) return;
    const double t = nowS();
    int arrived = boardTree_;
    std::erase_if(r_.boundArrivals, [&](const std::pair<double, int>& a) {
      if (a.first > t) return false;
      arrived = std::min(arrived, a.second);
      return true;
    });
    boardTree_ = arrived;
    r_.tree = std::min(r_.tree, boardTree_);
    if (r_.ownTree < publishedTree_ && r_.ownTree < boardTree_) {
      publishedTree_ = r_.ownTree;
      for (auto& q : job_.ranks) {
        if (q.get() == &r_) continue;
        q->boundArrivals.push_back({t + job_.oneWayS(r_, *q, 8), publishedTree_});
        ++r_.boardMessages;
        r_.boardBytes += 8;
      }
      ++boundPublishes_;
    }
  }

  // The latency probe: one timed one-sided read of the peer's record (a round trip).
  void probe(int peer, std::unique_lock<sg4::Mutex>& lock) {
    const double rtt = 2 * job_.oneWayS(r_, *job_.ranks[static_cast<std::size_t>(peer)], kRecordBytes);
    lock.unlock();
    sg4::this_actor::sleep_for(rtt);
    lock.lock();
    protocol_->delaySample(peer, rtt * 1e6);
  }

 public:
  void finish() { protocol_->finish(); }
  std::uint64_t boundPublishes() const { return boundPublishes_; }
  std::uint64_t yields() const { return yields_; }
  // Once every rank exists (the policy and the view are the rank's).
  void sizePeers() {
    publishedTree_ = boardTree_ = static_cast<int>(job_.trees.size());
    protocol_ = std::make_unique<comm::StealProtocol>(o_, r_.id, static_cast<int>(job_.ranks.size()), *r_.policy, *r_.view,
                                                      r_.stats, *this,
                                                      static_cast<std::uint64_t>(std::llround(job_.startTime * 1e9)));
  }

 private:
  Job& job_;
  Rank& r_;
  const comm::CommOptions& o_;
  std::unique_ptr<comm::StealProtocol> protocol_;
  std::unique_lock<sg4::Mutex>* lock_ = nullptr;  // while run() holds the rank
  std::vector<std::uint64_t> answer_;              // the tasks take() chose for the answer
  std::uint64_t yields_ = 0;  // turns that waited out a worker's time slice
  std::uint64_t publishes_ = 0;
  int publishedTree_ = 0, boardTree_ = 0;  // incumbent replay: the tree last published; the board's
  std::uint64_t boundPublishes_ = 0;
};

}  // namespace jackdaw::sim::detail
