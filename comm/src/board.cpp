#include "jackdaw/comm/board.hpp"

#include "board_messages.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

namespace jackdaw::comm {

std::int64_t encodeDouble(double d) noexcept {
  auto b = std::bit_cast<std::int64_t>(d);
  // Negative doubles order backwards as integers: flip their magnitude bits.
  return b < 0 ? b ^ std::numeric_limits<std::int64_t>::max() : b;
}
double decodeDouble(std::int64_t v) noexcept {
  return std::bit_cast<double>(v < 0 ? v ^ std::numeric_limits<std::int64_t>::max() : v);
}

static std::uint64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::int64_t LoadBoard::noBound() const noexcept {
  return sense_ == BoundSense::Maximise ? std::numeric_limits<std::int64_t>::min()
                                        : std::numeric_limits<std::int64_t>::max();
}

namespace {
// Once one board of this process found no one-sided component, later boards (one per search leg)
// go straight to messages, and the notice is printed once.
std::atomic<bool> gWindowsFailed{false};

std::string mpiErrorText(int rc) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return std::string(text, static_cast<std::size_t>(len));
}
}  // namespace

// The window returns its errors (set in createWindow): an operation to a rank whose process or
// host is gone fails here with that rank's number, instead of aborting this rank with MPI's
// generic message before mpirun can say which rank died.
void LoadBoard::check(int rc, const char* call, int target) {
  if (rc == MPI_SUCCESS) return;
  if (target < 0) {
    // A flush to every rank failed: find the first rank whose own flush fails.
    for (int t = 0; t < size_ && target < 0; ++t)
      if (MPI_Win_flush(t, win_) != MPI_SUCCESS) target = t;
  }
  const std::string whom = target < 0 ? std::string("a rank") : "rank " + std::to_string(target);
  throw std::runtime_error("the load board's one-sided " + std::string(call) + " to " + whom + " failed (" +
                           mpiErrorText(rc) + "): " + whom + "'s process or host is probably gone");
}

LoadBoard::LoadBoard(MPI_Comm comm, BoundSense sense, BoardScheme scheme, BoardTransport transport)
    : sense_(sense), scheme_(scheme) {
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  fetched_.assign(static_cast<std::size_t>(size_), std::nullopt);
  const MPI_Aint cells = kHeader + static_cast<MPI_Aint>(size_) * kRecordCells;
  if (!createWindow(cells, transport)) {
    cells_.assign(static_cast<std::size_t>(cells), 0);
    base_ = cells_.data();
    msgs_ = std::make_unique<detail::BoardMessages>(comm_, std::span<std::uint64_t>(cells_));
  }
  base_[kBound] = static_cast<std::uint64_t>(noBound());
  // Everyone's board must be initialised before anyone writes into it.
  MPI_Barrier(comm_);
  if (!msgs_) MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
}

// A window on every rank, or (transport Auto) none on any: MPI_Win_allocate returns its error
// instead of aborting the job, and the ranks agree before anyone uses a window.
bool LoadBoard::createWindow(MPI_Aint cells, BoardTransport transport) {
  if (transport == BoardTransport::Messages) return false;
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  int rc = MPI_ERR_WIN;
  if (transport == BoardTransport::Rma || !gWindowsFailed.load())
    rc = MPI_Win_allocate(cells * static_cast<MPI_Aint>(sizeof(std::uint64_t)), sizeof(std::uint64_t), MPI_INFO_NULL,
                          comm_, &base_, &win_);
  int mine = rc == MPI_SUCCESS ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm_);
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_ARE_FATAL);
  if (!all) {
    // A window some ranks got and others did not cannot be freed (that is collective): it stays.
    win_ = MPI_WIN_NULL;
    base_ = nullptr;
    char text[MPI_MAX_ERROR_STRING] = "another rank failed";
    int len = 0;
    if (rc != MPI_SUCCESS) MPI_Error_string(rc, text, &len);
    if (transport == BoardTransport::Rma)
      throw BoardUnavailable(std::string("--board-transport rma: MPI could not create the load board's one-sided "
                                           "window (") + text + "); use --board-transport auto or messages, or "
                                           "another one-sided component (Open MPI: --mca osc ucx)");
    if (!gWindowsFailed.exchange(true) && rank_ == 0)
      spdlog::warn("MPI could not create the load board's one-sided window ({}): the board runs on messages through "
                   "the comm threads instead (same answers; on Open MPI over TCP, --mca osc ucx gives a window)",
                   text);
    return false;
  }
  std::memset(base_, 0, static_cast<std::size_t>(cells) * sizeof(std::uint64_t));
  MPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN);
  int* model = nullptr;
  int flag = 0;
  MPI_Win_get_attr(win_, MPI_WIN_MODEL, &model, &flag);
  unified_ = flag && *model == MPI_WIN_UNIFIED;
  if (!unified_ && rank_ == 0)
    spdlog::warn("rank 0: RMA window uses the separate memory model; the comm thread will MPI_Win_sync");
  char name[MPI_MAX_OBJECT_NAME] = "";
  int len = 0;
  MPI_Win_get_name(win_, name, &len);
  windowName_.assign(name, static_cast<std::size_t>(len));
  return true;
}

LoadBoard::~LoadBoard() {
  if (msgs_) {
    msgs_->settle();  // collective: every message sent to this rank has been applied
    msgs_.reset();
    MPI_Comm_free(&comm_);
    return;
  }
  // Nobody may still be putting into our window when it goes away.
  MPI_Win_flush_all(win_);
  MPI_Barrier(comm_);
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
  MPI_Comm_free(&comm_);
}

bool LoadBoard::progress() { return msgs_ && msgs_->progress(); }

void LoadBoard::settle() {
  if (msgs_) return msgs_->settle();
  check(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
  MPI_Barrier(comm_);
}

RankRecord LoadBoard::decode(const std::uint64_t* c) noexcept {
  RankRecord rec;
  rec.seq = c[0];
  rec.workRate = std::bit_cast<double>(c[1]);
  rec.queued = c[2];
  rec.running = c[3];
  rec.idle = c[4];
  rec.timeNs = c[5];
  rec.pooled = c[kPooledCell];
  return rec;
}

std::optional<RankRecord> LoadBoard::read(int r) const noexcept {
  const int c = recordCell(r);
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::uint64_t s1 = load(c);
    if (s1 & 1) continue;
    std::uint64_t cells[kRecordCells];
    cells[0] = s1;
    for (int i = 1; i < kRecordCells; ++i) cells[i] = load(c + i, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (load(c, std::memory_order_relaxed) == s1) return decode(cells);
  }
  return std::nullopt;
}

std::optional<RankRecord> LoadBoard::latest(int r) const noexcept {
  auto local = read(r);
  const auto& f = fetched_[static_cast<std::size_t>(r)];
  // Both come from rank r's own sequence numbers: the larger is the newer.
  if (f && (!local || f->seq > local->seq)) return f;
  return local;
}

void LoadBoard::publish(RankRecord mine) {
  const auto t0 = nowNs();
  const MPI_Aint disp = recordCell(rank_);
  std::uint64_t odd = ++seq_;   // odd: record being written
  std::uint64_t even = ++seq_;  // even: record stable
  std::uint64_t fields[5] = {std::bit_cast<std::uint64_t>(mine.workRate), mine.queued, mine.running,
                             mine.idle, t0};
  if (scheme_ == BoardScheme::Sample) {
    // Our own window only, with plain stores in seqlock order; a thief's fetch reads it in three
    // flushed phases. The release fence keeps the compiler from moving field stores before the
    // odd sequence number (the hardware, x86-64, keeps stores in program order).
    const int c = recordCell(rank_);
    store(c, odd);
    std::atomic_thread_fence(std::memory_order_release);
    for (int i = 0; i < 5; ++i) store(c + 1 + i, fields[i]);
    store(c + kPooledCell, mine.pooled);
    store(c, even, std::memory_order_release);
    ++publishes_;
    publishNs_ += nowNs() - t0;
    return;
  }
  if (msgs_) {
    // One message per rank; each applies it seqlock-style. Cell 6 (the heartbeat) is not ours here.
    const std::uint64_t rec[kRecordCells] = {even, fields[0], fields[1], fields[2], fields[3], fields[4], 0, mine.pooled};
    constexpr std::uint64_t mask = 0xff & ~(1u << kHeartbeatCell);
    for (int t = 0; t < size_; ++t) msgs_->record(t, static_cast<int>(disp), rec, mask);
    ++publishes_;
    publishNs_ += nowNs() - t0;
    return;
  }
  for (int t = 0; t < size_; ++t) check(MPI_Put(&odd, 1, MPI_UINT64_T, t, disp, 1, MPI_UINT64_T, win_), "MPI_Put", t);
  check(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
  for (int t = 0; t < size_; ++t) {
    check(MPI_Put(fields, 5, MPI_UINT64_T, t, disp + 1, 5, MPI_UINT64_T, win_), "MPI_Put", t);
    check(MPI_Put(&mine.pooled, 1, MPI_UINT64_T, t, disp + kPooledCell, 1, MPI_UINT64_T, win_), "MPI_Put", t);
  }
  check(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
  for (int t = 0; t < size_; ++t) check(MPI_Put(&even, 1, MPI_UINT64_T, t, disp, 1, MPI_UINT64_T, win_), "MPI_Put", t);
  check(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
  ++publishes_;
  publishNs_ += nowNs() - t0;
}

void LoadBoard::fetch(std::span<const int> peers, std::span<std::optional<RankRecord>> out) {
  const auto t0 = nowNs();
  constexpr int kCells = kRecordCells + 1;  // seq before, the record's 8 cells (seq again in 0), seq after
  std::vector<std::uint64_t> buf(peers.size() * kCells);
  std::vector<std::size_t> todo(peers.size());
  for (std::size_t i = 0; i < todo.size(); ++i) todo[i] = i, out[i].reset();
  // Each phase's gets complete (flush) before the next phase starts: seq, then the fields, then
  // seq again — the seqlock reader's order, across the network.
  auto phase = [&](int offset, int cells, int disp) {
    for (std::size_t i : todo)
      check(MPI_Get(&buf[i * kCells + offset], cells, MPI_UINT64_T, peers[i], recordCell(peers[i]) + disp, cells,
                    MPI_UINT64_T, win_),
            "MPI_Get", peers[i]);
    for (std::size_t i : todo) check(MPI_Win_flush(peers[i], win_), "MPI_Win_flush", peers[i]);
  };
  for (int attempt = 0; attempt < 4 && !todo.empty(); ++attempt) {
    if (msgs_) {
      // The owner's comm thread writes its record and answers reads, one after the other: one
      // read of the whole record is never torn (its sequence number still says if it is whole).
      std::vector<detail::BoardMessages::Read> reads;
      for (std::size_t i : todo) reads.push_back({peers[i], recordCell(peers[i]), kRecordCells, &buf[i * kCells]});
      msgs_->getAll(reads);
      for (std::size_t i : todo) buf[i * kCells + kRecordCells] = buf[i * kCells];
    } else {
      phase(0, 1, 0);
      phase(1, kRecordCells - 1, 1);
      phase(kRecordCells, 1, 0);
    }
    std::vector<std::size_t> again;
    for (std::size_t i : todo) {
      const std::uint64_t* b = &buf[i * kCells];
      if ((b[0] & 1) == 0 && b[0] == b[kRecordCells]) out[i] = decode(b);
      else again.push_back(i);
    }
    todo.swap(again);
  }
  for (std::size_t i = 0; i < peers.size(); ++i) {
    if (!out[i]) continue;
    ++fetchedRecords_;
    auto& f = fetched_[static_cast<std::size_t>(peers[i])];
    if (!f || out[i]->seq >= f->seq) f = out[i];
  }
  ++fetches_;
  fetchNs_ += nowNs() - t0;
}

std::vector<int> LoadBoard::watched() const {
  if (scheme_ == BoardScheme::All) return everyOtherRank(rank_, size_).ranks;
  std::vector<int> out;
  for (int step = 1; step <= 2 && step < size_; ++step) out.push_back((rank_ + step) % size_);
  return out;
}

std::uint64_t LoadBoard::fetchHeartbeat(int r) {
  std::uint64_t v = 0;
  if (msgs_) {
    msgs_->get(r, recordCell(r) + kHeartbeatCell, 1, &v);
    return v;
  }
  check(MPI_Get(&v, 1, MPI_UINT64_T, r, recordCell(r) + kHeartbeatCell, 1, MPI_UINT64_T, win_), "MPI_Get", r);
  check(MPI_Win_flush(r, win_), "MPI_Win_flush", r);
  return v;
}

void LoadBoard::ring(int victim) {
  const std::uint64_t one = 1;
  if (msgs_) return msgs_->accumulate(victim, kDoorbell, 1, detail::BoardMessages::Op::Sum);
  check(MPI_Accumulate(&one, 1, MPI_UINT64_T, victim, kDoorbell, 1, MPI_UINT64_T, MPI_SUM, win_), "MPI_Accumulate",
        victim);
  check(MPI_Win_flush(victim, win_), "MPI_Win_flush", victim);
}

void LoadBoardView::refresh(std::span<const int> ranks) {
  out_.resize(ranks.size());
  board_.fetch(ranks, out_);
}

void LoadBoard::accumulateEverywhere(std::int64_t v, int cell, MPI_Op op) {
  if (msgs_) {
    using Op = detail::BoardMessages::Op;
    const Op m = op == MPI_MAX ? Op::Max : op == MPI_MIN ? Op::Min : Op::Sum;
    for (int t = 0; t < size_; ++t) msgs_->accumulate(t, cell, v, m);
    return;
  }
  for (int t = 0; t < size_; ++t)
    check(MPI_Accumulate(&v, 1, MPI_INT64_T, t, cell, 1, MPI_INT64_T, op, win_), "MPI_Accumulate", t);
  check(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
}

void LoadBoard::publishBound(std::int64_t v) { accumulateEverywhere(v, kBound, sense_ == BoundSense::Maximise ? MPI_MAX : MPI_MIN); }

void LoadBoard::publishStop(int reason) { accumulateEverywhere(reason, kStop, MPI_MAX); }

void LoadBoard::publishHeartbeat() {
  const std::uint64_t v = ++beats_;
  const MPI_Aint disp = recordCell(rank_) + kHeartbeatCell;
  if (msgs_) {
    // Pushed to whoever watches this rank (everyone, or the two ranks before it on the sampled
    // board): a watcher never waits on a read, which after termination nobody would answer.
    if (scheme_ == BoardScheme::All)
      for (int t = 0; t < size_; ++t) msgs_->store(t, static_cast<int>(disp), v);
    else
      for (int step = 0; step <= 2 && step < size_; ++step) msgs_->store((rank_ - step + size_) % size_, static_cast<int>(disp), v);
    return;
  }
  if (scheme_ == BoardScheme::Sample) {  // the watchers read it here
    store(static_cast<int>(disp), v, std::memory_order_release);
    return;
  }
  for (int t = 0; t < size_; ++t) check(MPI_Put(&v, 1, MPI_UINT64_T, t, disp, 1, MPI_UINT64_T, win_), "MPI_Put", t);
  check(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
}

std::optional<double> LoadBoard::timedRead(int peer) {
  if (msgs_) return msgs_->probe(peer, recordCell(peer), kRecordCells);
  std::uint64_t buf[kRecordCells];
  const auto t0 = std::chrono::steady_clock::now();
  check(MPI_Get(buf, kRecordCells, MPI_UINT64_T, peer, recordCell(peer), kRecordCells, MPI_UINT64_T, win_), "MPI_Get",
        peer);
  check(MPI_Win_flush(peer, win_), "MPI_Win_flush", peer);
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

void LoadBoard::syncIfSeparate() {
  if (!unified_ && !msgs_) MPI_Win_sync(win_);
}

}  // namespace jackdaw::comm
