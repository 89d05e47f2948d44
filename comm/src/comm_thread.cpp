#include "jackdaw/comm/comm_thread.hpp"

#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <cstdio>
#include <cstring>
#include <exception>
#include <random>

#include "jackdaw/comm/failure.hpp"
#include "jackdaw/comm/seed_tree.hpp"

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

CommThread::CommThread(MPI_Comm comm, LoadBoard& board, LocalWork& work, VictimPolicy& policy, CommOptions opts)
    : board_(board), work_(work), policy_(policy), opts_(opts),
      pendingBound_(board.noBound()), publishedBound_(board.noBound()), notifiedBound_(board.noBound()) {
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  stats_.latencyUs.assign(size_, 0.0);
  delaySumUs_.assign(size_, 0.0);
  delaySamples_.assign(size_, 0);
  rttSumUs_.assign(size_, 0.0);
  rttSamples_.assign(size_, 0);
  peerBeat_.assign(size_, 0);
  peerBeatSeenNs_.assign(size_, 0);
  watched_ = board_.watched();
  probePeer_ = rank_;
  seedVictim_ = seedParent(rank_, opts_.seedArity);
  seeding_ = seedVictim_ >= 0 && size_ > 1;
  // A common time origin for the herding bins: every rank leaves the barrier within microseconds.
  MPI_Barrier(comm_);
  startNs_ = nowNs();
}

void CommThread::endBurst() {
  if (burst_ == 0) return;
  ++stats_.requestBursts[std::min<std::size_t>(burst_, CommStats::kBurstCells) - 1];
  burst_ = 0;
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
  std::mt19937_64 delayRng(opts_.seed ^ (0x9e3779b97f4a7c15ULL * (rank_ + 1)));
  auto backoff = opts_.minSleep;
  for (auto& t : peerBeatSeenNs_) t = wallStart;  // every peer gets the full period from now
  while (!terminated_.load(std::memory_order_relaxed)) {
    const std::uint64_t now = nowNs();
    heartbeat(now);
    bool active = pollIncoming(false);
    active |= serveHeld(false);
    active |= propagate();
    active |= maybeSteal(now);
    maybePublish(now);
    maybeProbe(now);
    if (now >= nextRefreshNs_) nextRefreshNs_ = policy_.refresh(now);
    waveStep(now);
    testSends();
    board_.syncIfSeparate();
    if (opts_.testDelayMaxUs > 0 && (delayRng() & 3) == 0)
      std::this_thread::sleep_for(std::chrono::microseconds(delayRng() % (opts_.testDelayMaxUs + 1)));
    if (active) {
      backoff = opts_.minSleep;
    } else if (!terminated_.load(std::memory_order_relaxed)) {
      // A victim polls for requests every victimMaxSleep, unless thieves ring its doorbell: then
      // its busy workers wake it when one arrives, and the short sleeps would only take CPU from them.
      // Held seed requests wait for spare work, which nobody announces: look as often as for a reply.
      const Sleep sleep = nextSleep(opts_, backoff, !inflight_.empty() || !held_.empty(), lastRecord_.pooled > 0,
                                    work_.idleWorkers(), !sends_.empty());
      idleSleep(sleep.now);
      ++stats_.commSleeps;
      backoff = std::min(sleep.now * 2, sleep.cap);
    }
  }
  // A bound or stop published by a peer before the deciding wave is in our board by now: hand
  // it to the runtime so every rank ends with the same view.
  propagate();
  drain();
  endBurst();
  stats_.roundTripUs.assign(size_, 0.0);
  for (int p = 0; p < size_; ++p) {
    stats_.latencyUs[p] = delaySamples_[p] ? delaySumUs_[p] / static_cast<double>(delaySamples_[p]) : 0.0;
    stats_.roundTripUs[p] = rttSamples_[p] ? rttSumUs_[p] / static_cast<double>(rttSamples_[p]) : 0.0;
  }
  stats_.boardPublishes = board_.publishes();
  stats_.publishUsTotal = board_.publishUs();
  stats_.boardFetches = board_.fetches();
  stats_.fetchedRecords = board_.fetchedRecords();
  stats_.fetchUsTotal = board_.fetchUs();
  stats_.commCpuSeconds = threadCpuSeconds();
  stats_.ownCores = opts_.ownCores ? 1 : 0;
  stats_.commWallSeconds = 1e-9 * static_cast<double>(nowNs() - wallStart);
}

// Steal requests (victim side) and steal replies (thief side). While draining, requests are
// refused without touching the runtime: the search is over.
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
    if (st.MPI_TAG == kTagStealRequest) {
      StealRequest q;
      MPI_Recv(&q, sizeof q, MPI_BYTE, st.MPI_SOURCE, kTagStealRequest, comm_, MPI_STATUS_IGNORE);
      const std::uint64_t at = nowNs();
      if (burst_ > 0 && at - lastRequestNs_ > static_cast<std::uint64_t>(opts_.herdWindow.count()) * 1000) endBurst();
      ++burst_;
      lastRequestNs_ = at;
      if (!answer(st.MPI_SOURCE, q, at, draining, q.seed ? 0.0 : -1.0)) {
        held_.push_back({st.MPI_SOURCE, q, at});
        ++stats_.seedsHeld;
      }
    } else if (st.MPI_TAG == kTagStealReply) {
      int bytes = 0;
      MPI_Get_count(&st, MPI_BYTE, &bytes);
      std::vector<std::byte> buf(static_cast<std::size_t>(bytes));
      MPI_Recv(buf.data(), bytes, MPI_BYTE, st.MPI_SOURCE, kTagStealReply, comm_, MPI_STATUS_IGNORE);
      std::uint32_t count = 0;
      std::memcpy(&count, buf.data(), sizeof count);
      std::int32_t redirect = -1;  // a refused seed request: the rank to ask next (seed_tree.hpp)
      if (count == 0 && buf.size() >= sizeof count + sizeof redirect)
        std::memcpy(&redirect, buf.data() + sizeof count, sizeof redirect);
      const std::uint64_t t = nowNs();
      StealOutcome o;
      o.victim = st.MPI_SOURCE;
      o.gotWork = count > 0;
      o.tasks = count;
      auto it = inflight_.find(st.MPI_SOURCE);
      bool seedReply = false;
      if (it != inflight_.end()) {
        seedReply = it->second.seed;
        o.roundTripUs = 1e-3 * static_cast<double>(t - it->second.sentNs);
        if (opts_.events) opts_.events->stealEnded({rank_, st.MPI_SOURCE, it->second.id, count, it->second.sentNs, t});
        inflight_.erase(it);
      }
      stats_.stealRoundTripUsTotal += o.roundTripUs;
      if (count > 0) {
        ++stats_.stealsGranted;
        ++workMsgsRecv_;
        stats_.tasksReceived += count;
        stats_.bytesReceived += buf.size() - sizeof count;
        // Even while draining this cannot happen: termination means nobody had work to give.
        work_.receive(std::span<const std::byte>(buf.data() + sizeof count, buf.size() - sizeof count), count);
        stealRetryUs_ = 0;
        nextStealNs_ = 0;
      } else {
        ++stats_.stealsRefused;
        // Back off so that a rank whose peers are all dry does not flood them.
        stealRetryUs_ = stealRetryUs_ == 0 ? static_cast<std::uint64_t>(opts_.minSleep.count())
                                           : std::min<std::uint64_t>(stealRetryUs_ * 2, opts_.stealRetryMax.count());
        nextStealNs_ = t + stealRetryUs_ * 1000;
      }
      if (seedReply) {
        // Not the policy's choice: nothing to tell it. A refusal that names a rank sends the seed
        // request on up the tree; otherwise the seed phase is over, and after a refusal the
        // policy may choose at once.
        if (count > 0) {
          ++stats_.seedsGranted;
          seeding_ = false;
        } else {
          nextStealNs_ = 0;
          if (followSeedRedirect(redirect, rank_, size_, draining)) {
            seedVictim_ = redirect;
            ++stats_.seedRedirects;
          } else {
            seeding_ = false;
          }
        }
      } else if (!draining) {
        // A policy may own the pacing after a refusal (performance: retry at once, then back off).
        const std::int64_t d = policy_.onOutcome(o);
        if (!o.gotWork && d >= 0) nextStealNs_ = t + static_cast<std::uint64_t>(d) * 1000;
        if (o.roundTripUs > 0) roundTripSample(o.victim, o.roundTripUs);
      }
    } else {
      // Nobody else sends on our private communicator; a stray tag is a bug worth stopping for.
      throw std::runtime_error("unexpected message tag " + std::to_string(st.MPI_TAG) + " from rank " +
                               std::to_string(st.MPI_SOURCE));
    }
  }
}

// One steal request's answer: a task count, then the tasks, serialised straight into the send
// buffer. While draining it is a refusal, without touching the runtime: the search is over. A seed
// request held for heldUs (≥ 0) that gets nothing may be kept instead (seed_tree.hpp): returns false,
// nothing sent. giveAway is asked even so, since it is what makes a stack_stealing worker split.
bool CommThread::answer(int thief, const StealRequest& q, std::uint64_t arrivedNs, bool draining, double heldUs) {
  std::uint32_t count = 0;
  std::vector<std::byte> buf(sizeof count);
  if (!draining) count = work_.giveAway(q.half != 0, q.seed != 0, buf);
  if (count == 0 && heldUs >= 0 && !draining &&
      holdSeedRequest(seeding_, holdsWork(), heldUs, static_cast<double>(opts_.seedHoldMax.count())))
    return false;
  if (heldUs > 0) stats_.seedHoldUsTotal += heldUs;
  if (count == 0) {
    buf.resize(sizeof count);
    // A refused seed request names where to ask next (seed_tree.hpp).
    const std::int32_t to = q.seed && !draining ? seedRedirect(rank_, opts_.seedArity, opts_.seedRedirect) : -1;
    if (to >= 0) {
      buf.resize(sizeof count + sizeof to);
      std::memcpy(buf.data() + sizeof count, &to, sizeof to);
    }
  }
  PendingSend& s = sends_.emplace_back();
  s.buf = std::move(buf);
  // What we can give has changed (or the board said more than we had): say so at once, so the
  // next thief reads our real count, not the one from before this answer.
  if (count > 0 || lastRecord_.queued > 0) publishSoon_ = true;
  std::memcpy(s.buf.data(), &count, sizeof count);
  ++stats_.requestsAnswered;
  if (q.seen && q.queued > 0) {
    ++stats_.requestsPromised;
    if (count == 0) ++stats_.promisedRefused;
  } else if (count > 0) {
    ++stats_.unpromisedGranted;
  }
  if (count) {
    ++stats_.requestsGranted;
    ++workMsgsSent_;
    stats_.tasksSent += count;
    stats_.bytesSent += s.buf.size() - sizeof count;
  }
  MPI_Isend(s.buf.data(), static_cast<int>(s.buf.size()), MPI_BYTE, thief, kTagStealReply, comm_, &s.req);
  if (opts_.events) opts_.events->stealAnswered({thief, rank_, q.id, count, arrivedNs, nowNs()});
  return true;
}

// Held seed requests: answered with work once there is spare, refused once holding is over (and
// all of them while draining).
bool CommThread::serveHeld(bool draining) {
  bool any = false;
  const std::uint64_t now = nowNs();
  for (auto it = held_.begin(); it != held_.end();) {
    if (!answer(it->thief, it->q, it->arrivedNs, draining, 1e-3 * static_cast<double>(now - it->arrivedNs))) {
      ++it;
      continue;
    }
    it = held_.erase(it);
    any = true;
  }
  return any;
}

bool CommThread::maybeSteal(std::uint64_t now) {
  if (size_ < 2 || board_.stopReason() != 0) return false;
  // A hunger episode starts when the rank starts needing work; the policy starts it afresh
  // (performance: the retry after a refusal belongs to one episode).
  const bool hungry = work_.needsWork();
  if (hungry && !hungry_) {
    ++stats_.hungerEpisodes;
    policy_.onHungry();
  }
  hungry_ = hungry;
  if (static_cast<int>(inflight_.size()) >= opts_.maxStealsInFlight || now < nextStealNs_) return false;
  if (!hungry) return false;
  const int victim = seeding_ ? seedVictim_ : policy_.choose();
  if (victim < 0 || victim == rank_ || inflight_.count(victim)) return false;
  PendingSend& s = sends_.emplace_back();
  StealRequest q;
  q.half = opts_.stealHalf ? 1 : 0;
  q.seed = seeding_ ? 1 : 0;
  q.id = stats_.stealRequestsSent;
  if (seeding_) {
    ++stats_.seedRequests;
  } else if (auto rec = board_.latest(victim); rec && rec->seq > 0) {
    q.seen = 1;
    q.queued = rec->queued;
    addLog2(stats_.recordAgeLog2, 1e-3 * static_cast<double>(now - std::min(now, rec->timeNs)));
  }
  s.buf.resize(sizeof q);
  std::memcpy(s.buf.data(), &q, sizeof q);
  const std::uint64_t sent = nowNs();  // not `now` (the loop's): a reply handled since then came later
  MPI_Isend(s.buf.data(), sizeof q, MPI_BYTE, victim, kTagStealRequest, comm_, &s.req);
  if (opts_.doorbell) {
    board_.ring(victim);
    ++stats_.doorbellRings;
  }
  inflight_[victim] = {sent, q.id, q.seed != 0};
  ++stats_.stealRequestsSent;
  if (q.seed) {
    // Not a policy's choice: left out of the herding log.
  } else if (stats_.choiceBins.size() < CommStats::kMaxChoices) {
    stats_.choiceBins.push_back(static_cast<std::uint32_t>((now - std::min(now, startNs_)) / 10'000'000));
    stats_.choiceVictims.push_back(static_cast<std::uint32_t>(victim));
  } else {
    ++stats_.choicesDropped;
  }
  return true;
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

// The record goes out when it changed, at most every publishInterval, except that a change in
// whether we have anything to give (stealable 0 <-> > 0), or a steal answer, goes out at once:
// that is what a thief's choice turns on.
void CommThread::maybePublish(std::uint64_t now) {
  RankRecord r;
  r.queued = work_.stealableTasks();
  const bool crossed = everPublished_ && ((r.queued == 0) != (lastRecord_.queued == 0));
  const bool force = crossed || publishSoon_;
  // A publish that stays in our own window (scheme sample) costs a few stores: no rate limit.
  const auto interval = board_.pushes() ? static_cast<std::uint64_t>(opts_.publishInterval.count()) * 1000 : 0;
  if (!force && everPublished_ && now - lastPublishNs_ < interval) return;
  r.workRate = work_.workRate();
  r.pooled = work_.queuedTasks();
  r.running = static_cast<std::uint64_t>(std::max(0, work_.runningTasks()));
  r.idle = static_cast<std::uint64_t>(std::max(0, work_.idleWorkers()));
  publishSoon_ = false;
  if (everPublished_ && r.workRate == lastRecord_.workRate && r.queued == lastRecord_.queued &&
      r.pooled == lastRecord_.pooled && r.running == lastRecord_.running && r.idle == lastRecord_.idle)
    return;
  board_.publish(r);
  if (opts_.events) opts_.events->published(now, r.queued, r.pooled);
  lastRecord_ = r;
  everPublished_ = true;
  lastPublishNs_ = now;
}

void CommThread::maybeProbe(std::uint64_t now) {
  if (size_ < 2 || now - lastProbeNs_ < static_cast<std::uint64_t>(opts_.latencyProbeInterval.count()) * 1000) return;
  lastProbeNs_ = now;
  probePeer_ = (probePeer_ + 1) % size_;
  if (probePeer_ == rank_) probePeer_ = (probePeer_ + 1) % size_;
  delaySample(probePeer_, board_.timedRead(probePeer_));
}

void CommThread::heartbeat(std::uint64_t now) {
  if (size_ < 2 || now - lastBeatNs_ < static_cast<std::uint64_t>(opts_.heartbeatInterval.count()) * 1'000'000) return;
  lastBeatNs_ = now;
  board_.publishHeartbeat();
  if (opts_.watchdogSeconds <= 0) return;
  for (int p : watched_) {
    const std::uint64_t b = board_.pushes() ? board_.heartbeat(p) : board_.fetchHeartbeat(p);
    if (b != peerBeat_[p]) {
      peerBeat_[p] = b;
      peerBeatSeenNs_[p] = now;
      continue;
    }
    // Ranks wait a little longer the higher their number, so the lowest watching rank usually
    // speaks first and the job ends with one message.
    const double silent = 1e-9 * static_cast<double>(now - peerBeatSeenNs_[p]);
    if (silent > opts_.watchdogSeconds + 0.25 * rank_) {
      char msg[256];
      std::snprintf(msg, sizeof msg,
                    "watchdog: rank %d sent no heartbeat for %.1f s (--watchdog %g): it stopped, was swapped out or "
                    "is cut off; aborting the job",
                    p, silent, opts_.watchdogSeconds);
      abortJob(rank_, msg, 1);
    }
  }
}

// The delay (3.2) is the time to read a rank's load: timed one-sided reads only. A steal round
// trip mostly measures the victim's comm-thread wake-up and would bias the delay against ranks
// recently robbed, so it is reported apart (and offered to the policy as such). Both also go into
// the plain means --stats reports.
void CommThread::delaySample(int peer, double us) {
  delaySumUs_[peer] += us;
  ++delaySamples_[peer];
  policy_.onDelaySample(peer, us);
}

void CommThread::roundTripSample(int peer, double us) {
  addLog2(stats_.roundTripLog2, us);
  rttSumUs_[peer] += us;
  ++rttSamples_[peer];
  policy_.onRoundTrip(peer, us);
}

void CommThread::waveStep(std::uint64_t now) {
  if (waveActive_) {
    int done = 0;
    MPI_Test(&waveReq_, &done, MPI_STATUS_IGNORE);
    if (!done) return;
    waveActive_ = false;
    lastWaveEndNs_ = now;
    ++stats_.waves;
    const std::uint64_t* s = waveRecv_;
    const bool decided = s[0] == s[1] && s[2] == s[3] && s[4] == 0 && s[5] == 0;
    if (opts_.events) opts_.events->wave(waveStartNs_, now, decided);
    if (decided) terminated_.store(true, std::memory_order_release);
    return;
  }
  if (now - lastWaveEndNs_ < static_cast<std::uint64_t>(opts_.waveInterval.count()) * 1000) return;
  // Finished before created: a task finishing between the reads can only make this rank look
  // busier, never idle too early (and an unchanged second snapshot rules out races anyway).
  const std::uint64_t finished = work_.tasksFinished();
  const std::uint64_t created = work_.tasksCreated();
  // Outstanding steal requests do not count: drain() settles them after the decision.
  const bool busy = work_.queuedTasks() > 0 || work_.runningTasks() > 0;
  if (busy && now - lastWaveEndNs_ < static_cast<std::uint64_t>(opts_.busyWaveInterval.count()) * 1000) return;
  const std::uint64_t snap[5] = {created, finished, workMsgsSent_, workMsgsRecv_, busy ? 1u : 0u};
  const bool changed = !havePrev_ || std::memcmp(snap, prevSnap_, sizeof snap) != 0;
  std::memcpy(prevSnap_, snap, sizeof snap);
  havePrev_ = true;
  std::memcpy(waveSend_, snap, sizeof snap);
  waveSend_[5] = changed ? 1 : 0;
  MPI_Iallreduce(waveSend_, waveRecv_, 6, MPI_UINT64_T, MPI_SUM, comm_, &waveReq_);
  waveActive_ = true;
  waveStartNs_ = now;
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
  serveHeld(true);  // the thieves we kept waiting get their refusals now
  for (;;) {
    heartbeat(nowNs());  // a peer that stopped now would leave the barrier waiting forever
    const bool any = pollIncoming(true);
    testSends();
    if (barrier == MPI_REQUEST_NULL && inflight_.empty()) MPI_Ibarrier(comm_, &barrier);
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
