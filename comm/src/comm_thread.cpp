#include "jackdaw/comm/comm_thread.hpp"

#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <cstring>
#include <exception>

#include "heartbeat.hpp"
#include "jackdaw/comm/comm_turn.hpp"
#include "jackdaw/comm/failure.hpp"
#include "jackdaw/comm/wire.hpp"
#include "termination_wave.hpp"

namespace jackdaw::comm {

namespace {
// Tags on the comm layer's private communicator.
constexpr int kTagStealRequest = 1;
constexpr int kTagStealReply = 2;

std::uint64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}
double threadCpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_THREAD, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}
}  // namespace

CommThread::CommThread(MPI_Comm comm, LoadBoard& board, const BoardView& view, LocalWork& work, VictimPolicy& policy,
                       CommOptions opts)
    : board_(board), work_(work), opts_(opts), pendingBound_(board.noBound()), port_(*this),
      publishedBound_(board.noBound()), notifiedBound_(board.noBound()) {
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  heartbeat_ = std::make_unique<detail::Heartbeat>(board_, opts_, rank_, size_);
  wave_ = std::make_unique<detail::TerminationWave>(comm_, opts_);
  // A common time origin for the herding bins: every rank leaves the barrier within microseconds.
  MPI_Barrier(comm_);
  protocol_ = std::make_unique<StealProtocol>(opts_, rank_, size_, policy, view, stats_, port_, nowNs());
}

CommThread::~CommThread() {
  // Destroyed mid-search (an exception on the main thread): joining would wait for a global
  // termination that may never come, so the whole job goes down instead of hanging.
  if (thread_.joinable() && !terminated_.load(std::memory_order_acquire))
    abortJob(rank_, "search abandoned while the comm thread was running (an error on the main thread)", 1);
  if (thread_.joinable()) thread_.join();
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void CommThread::start() {
  thread_ = std::thread([this] {
    try {
      run();
    } catch (const std::exception& e) {
      abortJob(rank_, std::string("comm thread: ") + e.what(), 1);
    } catch (...) {
      abortJob(rank_, "comm thread: unknown exception", 1);
    }
  });
}

void CommThread::waitTermination() {
  if (thread_.joinable()) thread_.join();
}

void CommThread::wake() noexcept {
  {
    std::lock_guard lock(sleepMutex_);
    woken_ = true;
  }
  sleepCv_.notify_one();
}

void CommThread::offerBound(std::int64_t v) noexcept {
  std::int64_t cur = pendingBound_.load(std::memory_order_relaxed);
  while (board_.better(v, cur) && !pendingBound_.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
  }
  wake();
}

// Stop reasons rank (a higher one overrides: found beats interrupted, failed beats both); the
// board keeps the maximum, and so does this.
void CommThread::requestStop(int reason) noexcept {
  int cur = pendingStop_.load(std::memory_order_relaxed);
  while (reason > cur && !pendingStop_.compare_exchange_weak(cur, reason, std::memory_order_relaxed)) {
  }
  wake();
}

void CommThread::idleSleep(std::chrono::microseconds d) {
  std::unique_lock lock(sleepMutex_);
  sleepCv_.wait_for(lock, d, [this] { return woken_; });
  woken_ = false;
}

void CommThread::run() {
  const std::uint64_t wallStart = nowNs();
#ifdef __linux__
  // Linux rounds a sleeping thread's wake-up by 50 µs of timer slack by default, which would turn
  // our 20 µs backoff steps into ~70 µs; 1 µs keeps the backoff as configured.
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
#endif
  heartbeat_->start(wallStart);
  // The turn's MPI transport (comm_turn.hpp).
  struct Mpi {
    CommThread& t;
    bool receive() {
      // A board on messages: apply what peers wrote, answer their reads. Like a one-sided write,
      // that is not work for this thread: it does not shorten the backoff (peers' records and
      // heartbeats arrive all the time, and kept a busy rank's comm thread at its shortest
      // sleep). A bound or stop it brought is found by propagate().
      t.board_.progress();
      return t.pollIncoming(false);
    }
    bool exchangeBounds() { return t.propagate(); }
    bool finished() { return false; }
    bool boardPushes() { return t.board_.pushes(); }
    void publish(std::uint64_t now, const RankRecord& r) {
      t.board_.publish(r);
      if (t.opts_.events) t.opts_.events->published(now, r.queued, r.pooled);
    }
    std::optional<double> timedRead(int peer) { return t.board_.timedRead(peer); }
    bool endTurn(std::uint64_t now) {
      if (t.wave_->step(now, t.work_, t.workMsgsSent_, t.workMsgsRecv_)) t.terminated_.store(true, std::memory_order_release);
      t.testSends();
      t.board_.syncIfSeparate();
      if (t.opts_.events) t.opts_.events->turnEnded();
      return t.terminated_.load(std::memory_order_relaxed);
    }
    bool sendsPending() { return !t.sends_.empty(); }
  } mpi{*this};
  while (!terminated_.load(std::memory_order_relaxed)) {
    const std::uint64_t now = nowNs();
    heartbeat_->beat(now);
    const TurnEnd end = commTurn(*protocol_, mpi, work_, now);
    if (end.last) break;
    if (end.sleep) {
      idleSleep(*end.sleep);
      ++stats_.commSleeps;
    }
  }
  // A bound or stop published by a peer before the deciding wave is in our board by now: hand
  // it to the runtime so every rank ends with the same view.
  propagate();
  drain();
  heartbeat_->stop();
  finishStats(wallStart);
}

void CommThread::finishStats(std::uint64_t wallStart) {
  protocol_->finish();
  stats_.waves = wave_->waves();
  stats_.boardPublishes = board_.publishes();
  stats_.publishUsTotal = board_.publishUs();
  stats_.boardFetches = board_.fetches();
  stats_.fetchedRecords = board_.fetchedRecords();
  stats_.fetchUsTotal = board_.fetchUs();
  stats_.commCpuSeconds = threadCpuSeconds();
  stats_.ownCores = opts_.ownCores ? 1 : 0;
  stats_.commWallSeconds = 1e-9 * static_cast<double>(nowNs() - wallStart);
}

// Steal requests (victim side) and steal replies (thief side), to the protocol. While draining,
// requests are refused without touching the runtime: the search is over.
bool CommThread::pollIncoming(bool draining) {
  bool any = false;
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st);
    // Open MPI's ob1 matches a probe before it progresses the transport, so a message that arrived
    // while we slept is pulled in by the first probe and found only by the next: without this
    // second look a request woken by the doorbell waited out a whole backoff step (up to 4 ms).
    if (!flag && !any) MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st);
    if (!flag) return any;
    any = true;
    if (st.MPI_TAG != kTagStealRequest && st.MPI_TAG != kTagStealReply)
      // Nobody else sends on our private communicator; a stray tag is a bug worth stopping for.
      throw std::runtime_error("unexpected message tag " + std::to_string(st.MPI_TAG) + " from rank " +
                               std::to_string(st.MPI_SOURCE));
    int bytes = 0;
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    std::vector<std::byte> buf(static_cast<std::size_t>(bytes));
    MPI_Recv(buf.data(), bytes, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, comm_, MPI_STATUS_IGNORE);
    wire::Reader in(buf);
    if (st.MPI_TAG == kTagStealRequest) {
      StealRequest q;
      in(q);
      protocol_->onRequest(st.MPI_SOURCE, q, draining);
      continue;
    }
    AnswerHeader h;
    in(h);
    std::optional<int> redirect;
    if (h.redirect >= 0) redirect = h.redirect;
    protocol_->onReply(st.MPI_SOURCE, h.count, redirect, draining);
    if (h.count > 0) {
      ++workMsgsRecv_;
      const auto tasks = std::span<const std::byte>(buf).subspan(kAnswerHeaderBytes);
      stats_.bytesReceived += tasks.size();
      // Even while draining this cannot happen: termination means nobody had work to give.
      work_.receive(tasks, h.count);
    }
  }
}

std::uint64_t CommThread::Port::nowNs() { return comm::nowNs(); }

bool CommThread::Port::stopped() { return t_.board_.stopReason() != 0; }

bool CommThread::Port::holdsWork() { return comm::holdsWork(t_.work_); }

bool CommThread::Port::splitsForThieves() { return t_.work_.splitsForThieves(); }

// The answer's header goes first (sendAnswer fills it in), then giveAway serialises the tasks
// straight into the send buffer.
std::uint32_t CommThread::Port::take(int /*thief*/, const StealRequest& q) {
  answer_.assign(kAnswerHeaderBytes, std::byte{0});
  return t_.work_.giveAway(q.half, q.seed, answer_);
}

void CommThread::Port::sendAnswer(int thief, const StealRequest& /*q*/, std::uint32_t count, std::optional<int> redirect) {
  if (count == 0) answer_.clear();  // while draining take() was not asked
  std::vector<std::byte> header;
  {
    wire::Writer w(header);
    w(AnswerHeader{count, static_cast<std::int32_t>(redirect.value_or(-1))});
  }
  answer_.resize(std::max(answer_.size(), header.size()));
  std::memcpy(answer_.data(), header.data(), header.size());
  if (count > 0) {
    ++t_.workMsgsSent_;
    t_.stats_.bytesSent += answer_.size() - kAnswerHeaderBytes;
  }
  t_.send(thief, kTagStealReply, std::move(answer_));
  answer_ = {};
}

void CommThread::Port::sendRequest(int victim, const StealRequest& q, bool ring) {
  std::vector<std::byte> buf;
  {
    wire::Writer w(buf);
    w(q);
  }
  t_.send(victim, kTagStealRequest, std::move(buf));
  if (ring) t_.board_.ring(victim);
}

void CommThread::send(int to, int tag, std::vector<std::byte> buf) {
  PendingSend& s = sends_.emplace_back();
  s.buf = std::move(buf);
  MPI_Isend(s.buf.data(), static_cast<int>(s.buf.size()), MPI_BYTE, to, tag, comm_, &s.req);
}

bool CommThread::propagate() {
  bool any = false;
  const std::int64_t pb = pendingBound_.load(std::memory_order_relaxed);
  if (board_.better(pb, publishedBound_) && board_.better(pb, board_.bound())) {
    board_.publishBound(pb);
    ++stats_.boundPublishes;
    if (opts_.events) opts_.events->boundSent(nowNs(), pb);
    any = true;
  }
  if (board_.better(pb, publishedBound_)) publishedBound_ = pb;
  const int ps = pendingStop_.load(std::memory_order_relaxed);
  if (ps > publishedStop_) {
    board_.publishStop(ps);
    publishedStop_ = ps;
    ++stats_.stopPublishes;
    any = true;
  }
  const std::int64_t b = board_.bound();
  if (board_.better(b, notifiedBound_)) {
    notifiedBound_ = b;
    work_.onBound(b);
    if (opts_.events) opts_.events->boundReceived(nowNs(), b);
    any = true;
  }
  const int s = board_.stopReason();
  if (s > notifiedStop_) {
    notifiedStop_ = s;
    work_.onStop(s);
    if (opts_.events) opts_.events->stopReceived(nowNs(), s);
    any = true;
  }
  return any;
}

void CommThread::testSends() {
  for (auto it = sends_.begin(); it != sends_.end();) {
    int done = 0;
    MPI_Test(&it->req, &done, MPI_STATUS_IGNORE);
    it = done ? sends_.erase(it) : std::next(it);
  }
}

// After the decision: wait for the replies to our own requests, then an Ibarrier; keep refusing
// requests until the barrier completes, when nobody can have a request outstanding.
void CommThread::drain() {
  MPI_Request barrier = MPI_REQUEST_NULL;
  auto backoff = opts_.minSleep;
  protocol_->serveHeld(true);  // the thieves we kept waiting get their refusals now
  for (;;) {
    heartbeat_->beat(nowNs());  // a peer that stopped now would leave the barrier waiting forever
    const bool any = board_.progress() | pollIncoming(true);
    testSends();
    if (barrier == MPI_REQUEST_NULL && protocol_->requestsInFlight() == 0) MPI_Ibarrier(comm_, &barrier);
    if (barrier != MPI_REQUEST_NULL) {
      int done = 0;
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
      if (done) break;
    }
    if (any) backoff = opts_.minSleep;
    else {
      std::this_thread::sleep_for(backoff);
      backoff = std::min(backoff * 2, opts_.maxSleep);
    }
  }
  // Our replies are small but must complete before the buffers go away.
  for (auto& s : sends_) MPI_Wait(&s.req, MPI_STATUS_IGNORE);
  sends_.clear();
}

}  // namespace jackdaw::comm
