#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "jackdaw/comm/comm_turn.hpp"
#include "jackdaw/comm/steal_protocol.hpp"
#include "job.hpp"
#include "rank_work.hpp"
#include "workers.hpp"

namespace jackdaw::sim::detail {

// A rank's comm thread in simulated time: the runtime's turn (comm/comm_turn.hpp) and steal
// protocol (comm/steal_protocol.hpp) over the rank's LocalWork (rank_work.hpp), driven over
// SimGrid mailboxes. What is the simulator's own is the transport: when a turn starts (MPI's
// yields, late wake-ups), what the comm thread's CPU costs, how messages and board records travel,
// and the incumbent replay's bound exchange.
class CommActor final : public comm::StealPort {
 public:
  CommActor(Job& job, Rank& r) : job_(job), r_(r), o_(job.cfg.comm), work_(job, r) {}

  void run() {
    std::unique_lock lock(*r_.mutex);
    lock_ = &lock;
    bool slept = false;  // this turn follows a sleep
    while (!job_.done) {
      startTurn(lock, slept);
      slept = false;
      if (job_.done) break;
      const comm::TurnEnd end = comm::commTurn(*protocol_, *this, work_, nowNs());
      if (end.last) break;
      const auto sleep = end.sleep;
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
  bool holdsWork() override { return comm::holdsWork(work_); }
  bool splitsForThieves() override { return work_.splitsForThieves(); }
  std::uint32_t take(int /*thief*/, const comm::StealRequest& q) override {
    answer_.clear();
    return work_.giveAway(q.half, q.seed, answer_);
  }

  // The answer costs the network its header (which holds the redirect) and the tasks' recorded sizes.
  void sendAnswer(int thief, const comm::StealRequest& /*q*/, std::uint32_t count, std::optional<int> redirect) override {
    auto* a = new Msg{Msg::Reply, r_.id, {}, {count, static_cast<std::int32_t>(redirect.value_or(-1))}, {}};
    double bytes = kReplyHeader;
    if (count > 0) {
      bytes += work_.givenBytes();
      r_.stats.bytesSent += static_cast<std::uint64_t>(bytes - kReplyHeader);
      a->tasks = std::move(answer_);
    }
    answer_.clear();
    job_.ranks[static_cast<std::size_t>(thief)]->box->put_init(a, static_cast<std::uint64_t>(bytes))->detach();
  }

  void sendRequest(int victim, const comm::StealRequest& q, bool /*ring*/) override {
    auto* m = new Msg{Msg::Request, r_.id, q, {}, {}};
    job_.ranks[static_cast<std::size_t>(victim)]->box->put_init(m, static_cast<std::uint64_t>(kRequestBytes))->detach();
  }

  // ---- the turn's transport (comm/comm_turn.hpp) ----
  // Each message costs the comm actor's CPU (--comm-cost-us) as it is handled, and so does each board
  // record that arrived as a message (--board-transport messages).
  bool receive() {
    bool any = false;
    if (r_.boardRecordsIn > 0) {  // board on messages: applied, but not work (as the runtime's turn)
      const double us = job_.cfg.commCostUs * static_cast<double>(r_.boardRecordsIn);
      r_.boardRecordsIn = 0;
      cpu(*lock_, us);
    }
    while (!r_.inbox.empty()) {
      std::unique_ptr<Msg> m(r_.inbox.front());
      r_.inbox.pop_front();
      any = true;
      cpu(*lock_, job_.cfg.commCostUs);
      if (m->kind == Msg::Request) {
        protocol_->onRequest(m->from, m->request, job_.done);
        continue;
      }
      std::optional<int> redirect;
      if (m->answer.redirect >= 0) redirect = m->answer.redirect;
      protocol_->onReply(m->from, m->answer.count, redirect, job_.done);
      if (m->answer.count > 0) work_.receive(m->tasks, m->answer.count);
    }
    return any;
  }
  // A better bound found on this rank goes to every rank's board (one accumulate each) at this
  // turn; a bound that has reached this rank's board is taken at this turn (incumbent replay).
  bool exchangeBounds() {
    if (job_.trees.size() < 2) return false;
    const double t = nowS();
    int arrived = boardTree_;
    std::erase_if(r_.boundArrivals, [&](const std::pair<double, int>& a) {
      if (a.first > t) return false;
      arrived = std::min(arrived, a.second);
      return true;
    });
    // As the runtime's propagate(): a bound that arrived or went out makes the turn active.
    bool moved = arrived < boardTree_;
    boardTree_ = arrived;
    r_.tree = std::min(r_.tree, boardTree_);
    if (r_.ownTree < publishedTree_ && r_.ownTree < boardTree_) {
      moved = true;
      publishedTree_ = r_.ownTree;
      for (auto& q : job_.ranks) {
        if (q.get() == &r_) continue;
        q->boundArrivals.push_back({t + job_.oneWayS(r_, *q, 8), publishedTree_});
        ++r_.boardMessages;
        r_.boardBytes += 8;
      }
      ++boundPublishes_;
    }
    return moved;
  }
  bool finished() { return job_.done; }
  bool boardPushes() { return job_.pushes(); }
  // The simulated board carries it: every window a network delay later under scheme all, 4·(P−1)
  // puts; at its owner under scheme sample.
  void publish(std::uint64_t now, const comm::RankRecord& r) {
    comm::RankRecord rec = r;
    rec.seq = 2 * (publishes_ + 1);
    rec.timeNs = now;
    ++publishes_;
    job_.board->publish(r_.id, rec);
    ++r_.stats.boardPublishes;
    if (job_.pushes()) {
      if (job_.cfg.boardMessages)
        for (auto& q : job_.ranks)
          if (q.get() != &r_) ++q->boardRecordsIn;
      const std::uint64_t peers = job_.ranks.size() - 1;
      r_.boardMessages += 4 * peers;
      r_.boardBytes += static_cast<std::uint64_t>(peers * (kRecordBytes + 2 * 8));
    }
  }
  // The latency probe: one timed one-sided read of the peer's record (a round trip).
  double timedRead(int peer) {
    const double rtt = 2 * job_.oneWayS(r_, *job_.ranks[static_cast<std::size_t>(peer)], kRecordBytes);
    lock_->unlock();
    sg4::this_actor::sleep_for(rtt);
    lock_->lock();
    return rtt * 1e6;
  }
  bool endTurn(std::uint64_t /*now*/) { return job_.done; }
  bool sendsPending() { return false; }  // a simulated send leaves its sender at once

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
  RankWork work_;
  std::vector<std::byte> answer_;                  // the tasks take() chose for the answer (RankWork::giveAway)
  std::uint64_t yields_ = 0;  // turns that waited out a worker's time slice
  std::uint64_t publishes_ = 0;
  int publishedTree_ = 0, boardTree_ = 0;  // incumbent replay: the tree last published; the board's
  std::uint64_t boundPublishes_ = 0;
};

}  // namespace jackdaw::sim::detail
