#include "board_messages.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

namespace jackdaw::comm::detail {

namespace {
constexpr int kTag = 7;  // every board message; the communicator is the board's alone
// Layouts, in 8-byte words:
//   Store  [op, cell, value]            Record [op, cell, mask, values...]
//   Max/Min/Sum [op, cell, value]       Get [op, cell, n, id]      Reply [op, id, values...]
}  // namespace

BoardMessages::BoardMessages(MPI_Comm comm, std::span<std::uint64_t> cells) : comm_(comm), cells_(cells) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  sent_.assign(static_cast<std::size_t>(size_), 0);
  received_.assign(static_cast<std::size_t>(size_), 0);
  probeSentNs_.assign(static_cast<std::size_t>(size_), 0);
  probeUs_.assign(static_cast<std::size_t>(size_), std::nullopt);
}

namespace {
std::uint64_t steadyNs() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}
}  // namespace

BoardMessages::~BoardMessages() {
  // close() completed every send. Torn down without it (an error unwinding), requests may still
  // name our buffers: they are left allocated rather than freed under MPI's feet.
  if (!sends_.empty()) (void)new std::list<Pending>(std::move(sends_));
}

void BoardMessages::send(int target, std::vector<std::uint64_t> msg) {
  Pending& p = sends_.emplace_back();
  p.buf = std::move(msg);
  ++sent_[static_cast<std::size_t>(target)];
  MPI_Isend(p.buf.data(), static_cast<int>(p.buf.size()), MPI_UINT64_T, target, kTag, comm_, &p.req);
}

void BoardMessages::store(int target, int cell, std::uint64_t value) {
  if (target == rank_) return put(cell, value, std::memory_order_release);
  send(target, {static_cast<std::uint64_t>(Op::Store), static_cast<std::uint64_t>(cell), value});
}

void BoardMessages::record(int target, int cell, std::span<const std::uint64_t> values, std::uint64_t mask) {
  std::vector<std::uint64_t> msg{static_cast<std::uint64_t>(Op::Record), static_cast<std::uint64_t>(cell), mask};
  msg.insert(msg.end(), values.begin(), values.end());
  if (target == rank_) return apply(rank_, msg);
  send(target, std::move(msg));
}

void BoardMessages::accumulate(int target, int cell, std::int64_t value, Op op) {
  std::vector<std::uint64_t> msg{static_cast<std::uint64_t>(op), static_cast<std::uint64_t>(cell),
                                 static_cast<std::uint64_t>(value)};
  if (target == rank_) return apply(rank_, msg);
  send(target, std::move(msg));
}

void BoardMessages::get(int target, int cell, int n, std::uint64_t* out) {
  const Read one{target, cell, n, out};
  getAll(std::span<const Read>(&one, 1));
}

std::optional<double> BoardMessages::probe(int target, int cell, int n) {
  if (target == rank_) {  // this rank's own cells: read at once, as get() does
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::uint64_t> copy(static_cast<std::size_t>(n));
    get(target, cell, n, copy.data());
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  }
  const auto t = static_cast<std::size_t>(target);
  std::optional<double> last = std::exchange(probeUs_[t], std::nullopt);
  if (probeSentNs_[t] == 0) {
    probeSentNs_[t] = std::max<std::uint64_t>(1, steadyNs());
    ++probesOut_;
    send(target, {static_cast<std::uint64_t>(Op::Get), static_cast<std::uint64_t>(cell), static_cast<std::uint64_t>(n),
                  kProbeId | static_cast<std::uint64_t>(target)});
  }
  return last;
}

void BoardMessages::getAll(std::span<const Read> reads) {
  firstAwaited_ = nextGet_;
  awaited_ = reads;
  answered_ = 0;
  for (const Read& r : reads) {
    const std::uint64_t id = nextGet_++;
    if (r.target == rank_) {
      for (int i = 0; i < r.n; ++i) r.out[i] = load(r.cell + i);
      ++answered_;
      continue;
    }
    send(r.target, {static_cast<std::uint64_t>(Op::Get), static_cast<std::uint64_t>(r.cell),
                    static_cast<std::uint64_t>(r.n), id});
  }
  // Serving the others while we wait: two ranks that read each other at once both get answers.
  while (answered_ < reads.size()) progress();
  awaited_ = {};
  firstAwaited_ = 0;
}

void BoardMessages::apply(int from, std::span<const std::uint64_t> m) {
  if (m.size() < 2) throw std::runtime_error("board: a message of " + std::to_string(m.size()) + " words");
  const auto op = static_cast<Op>(m[0]);
  const int cell = static_cast<int>(m[1]);
  const auto inBoard = [&](int first, std::size_t n) {
    if (first < 0 || static_cast<std::size_t>(first) + n > cells_.size())
      throw std::runtime_error("board: rank " + std::to_string(from) + " wrote outside the board");
  };
  switch (op) {
    case Op::Store:
      inBoard(cell, 1);
      put(cell, m[2], std::memory_order_release);
      return;
    case Op::Record: {
      const std::uint64_t mask = m[2];
      const auto values = m.subspan(3);
      inBoard(cell, values.size());
      // The seqlock writer's order (board.hpp): odd, the fields, then the even number.
      put(cell, values[0] - 1);
      std::atomic_thread_fence(std::memory_order_release);
      for (std::size_t i = 1; i < values.size(); ++i)
        if (mask >> i & 1) put(cell + static_cast<int>(i), values[i]);
      put(cell, values[0], std::memory_order_release);
      return;
    }
    case Op::Max:
    case Op::Min:
    case Op::Sum: {
      inBoard(cell, 1);
      const auto cur = static_cast<std::int64_t>(load(cell)), v = static_cast<std::int64_t>(m[2]);
      const std::int64_t next = op == Op::Max ? std::max(cur, v) : op == Op::Min ? std::min(cur, v) : cur + v;
      put(cell, static_cast<std::uint64_t>(next), std::memory_order_release);
      return;
    }
    case Op::Get: {
      const auto n = static_cast<std::size_t>(m[2]);
      inBoard(cell, n);
      std::vector<std::uint64_t> reply{static_cast<std::uint64_t>(Op::Reply), m[3]};
      for (std::size_t i = 0; i < n; ++i) reply.push_back(load(cell + static_cast<int>(i)));
      send(from, std::move(reply));
      return;
    }
    case Op::Reply: {
      if (m[1] & kProbeId) {  // a probe's answer: its round trip, kept for the next probe()
        const auto p = static_cast<std::size_t>(from);
        if (probeSentNs_[p] != 0) {
          const std::uint64_t now = steadyNs();
          probeUs_[p] = 1e-3 * static_cast<double>(now - std::min(now, probeSentNs_[p]));
          probeSentNs_[p] = 0;
          --probesOut_;
        }
        return;
      }
      // An answer to the getAll() in progress (an older one's cannot come: each waits for all).
      if (firstAwaited_ == 0 || m[1] < firstAwaited_ || m[1] >= firstAwaited_ + awaited_.size()) return;
      const Read& r = awaited_[m[1] - firstAwaited_];
      std::copy_n(m.begin() + 2, std::min<std::size_t>(m.size() - 2, static_cast<std::size_t>(r.n)), r.out);
      ++answered_;
      return;
    }
  }
  throw std::runtime_error("board: unknown message " + std::to_string(m[0]) + " from rank " + std::to_string(from));
}

bool BoardMessages::progress() {
  bool any = false;
  std::vector<std::uint64_t> buf;
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, kTag, comm_, &flag, &st);
    if (!flag) break;
    int words = 0;
    MPI_Get_count(&st, MPI_UINT64_T, &words);
    buf.resize(static_cast<std::size_t>(words));
    MPI_Recv(buf.data(), words, MPI_UINT64_T, st.MPI_SOURCE, kTag, comm_, MPI_STATUS_IGNORE);
    ++received_[static_cast<std::size_t>(st.MPI_SOURCE)];
    apply(st.MPI_SOURCE, buf);
    any = true;
  }
  for (auto it = sends_.begin(); it != sends_.end();) {
    int done = 0;
    MPI_Test(&it->req, &done, MPI_STATUS_IGNORE);
    it = done ? sends_.erase(it) : std::next(it);
  }
  return any;
}

void BoardMessages::settle() {
  // Each rank learns how many messages every other rank sent it, then receives until it has them
  // all (answering late gets meanwhile). A peer's comm thread waits for its gets' replies before
  // it closes, so every get is answered before its sender counts.
  // Our probes' answers first (each peer answers while it runs or settles), so that none is sent
  // after its sender's count.
  while (probesOut_ > 0) progress();
  std::vector<std::uint64_t> expected(static_cast<std::size_t>(size_), 0);
  MPI_Request all = MPI_REQUEST_NULL;
  MPI_Ialltoall(sent_.data(), 1, MPI_UINT64_T, expected.data(), 1, MPI_UINT64_T, comm_, &all);
  for (int done = 0; !done;) {
    progress();
    MPI_Test(&all, &done, MPI_STATUS_IGNORE);
  }
  const auto behind = [&] {
    for (int p = 0; p < size_; ++p)
      if (received_[static_cast<std::size_t>(p)] < expected[static_cast<std::size_t>(p)]) return true;
    return false;
  };
  while (behind() || !sends_.empty()) progress();
}

}  // namespace jackdaw::comm::detail
