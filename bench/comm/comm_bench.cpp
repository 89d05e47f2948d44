// comm_bench: timings of the comm layer on the ranks mpirun gives it (run by run_comm_bench.sh).
// Prints one markdown table row per measurement on rank 0:
//   steal round trip (thief ↔ idle victim's comm thread), board publish (into every rank),
//   local board read, incumbent propagation (raw board, and offerBound → onBound through the comm
//   threads), CPU used by a comm thread with nothing to do (busy rank, idle thief).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "jackdaw/comm/board.hpp"
#include "jackdaw/comm/session.hpp"
#include "jackdaw/comm/collectives.hpp"
#include "jackdaw/comm/runtime.hpp"

using namespace jackdaw::comm;
using Clock = std::chrono::steady_clock;

namespace {

int gRank = 0, gSize = 1;
// JACKDAW_BENCH_BOARD_TRANSPORT=messages measures the board on messages (the fallback where MPI
// has no one-sided component); rma forces a window; unset: whatever MPI gives (auto).
BoardTransport gTransport = BoardTransport::Auto;

void row(const std::string& what, double value, const std::string& unit, const std::string& note = "") {
  if (gRank == 0) std::printf("| %s | %.3f | %s | %s |\n", what.c_str(), value, unit.c_str(), note.c_str());
}

// A rank whose "tasks" exist only as counters. Rank 0 hands out `budget` one-task steals; other
// ranks want work until they have `want` tasks. `hold` keeps one task running (so the job does
// not terminate) until released.
class BenchWork final : public LocalWork {
 public:
  std::atomic<std::uint64_t> budget{0}, given{0}, received{0}, want{0};
  std::atomic<bool> hold{false}, alwaysHungry{false};
  std::atomic<std::int64_t> bound{std::numeric_limits<std::int64_t>::min()};

  std::size_t queuedTasks() override { return given < budget ? 1 : 0; }
  int runningTasks() override { return hold ? 1 : 0; }
  int idleWorkers() override { return hold ? 0 : 1; }
  double workRate() override { return 1.0; }
  bool needsWork() override { return alwaysHungry || received < want; }
  std::uint32_t giveAway(bool, bool, std::vector<std::byte>& out) override {
    if (given >= budget) return 0;
    ++given;
    out.resize(out.size() + 8);
    return 1;
  }
  void receive(std::span<const std::byte>, std::uint32_t count) override { received += count; }
  // Given tasks count as created here and finished (at once) by the thief.
  std::uint64_t tasksCreated() override { return given + (hold ? 1 : 0) + released_; }
  std::uint64_t tasksFinished() override { return received + released_; }
  void release() {
    released_ = 1;  // the held task: created and finished
    hold = false;
  }
  void onBound(std::int64_t b) override { bound = b; }

 private:
  std::atomic<std::uint64_t> released_{0};
};

struct Job {
  BenchWork work;
  std::unique_ptr<Session> comm;
  explicit Job(CommOptions o) {
    SessionConfig c;
    c.comm = o;
    c.boardTransport = gTransport;
    comm = std::make_unique<Session>(c, 1, work);
  }
  // Every rank's comm counters, on rank 0 (collective).
  std::vector<CommStats> stats() {
    std::vector<CommStats> out;
    for (const auto& r : comm->gather({})) out.push_back(r.comm);
    return out;
  }
};

// Rank 0 is the only victim; every other rank steals `perThief` tasks one at a time.
void stealRoundTrip(const char* label, CommOptions o, std::uint64_t perThief) {
  Job j(o);
  if (gRank == 0) j.work.budget = perThief * (gSize - 1);
  else j.work.want = perThief;
  j.comm->start();
  j.comm->waitTermination();
  const auto s = j.stats();
  if (gRank == 0) {
    double rtt = 0, n = 0;
    for (std::size_t r = 1; r < s.size(); ++r) {
      const auto answered = s[r].stealsGranted + s[r].stealsRefused;
      rtt += answered ? s[r].stealRoundTripUsTotal / static_cast<double>(answered) : 0.0;
      n += 1;
    }
    row(std::string("steal round trip, ") + label, rtt / n, "µs",
        std::to_string(perThief) + " one-task steals per thief; mean over thieves");
  }
}

void boardCosts(BoardScheme scheme) {
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, scheme, gTransport);
  const std::string tag = std::string(" [board ") + boardSchemeName(scheme) + ", " + boardTransportName(b.transport()) + "]";
  const int n = 2000;
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = Clock::now();
  for (int i = 0; i < n; ++i) {
    RankRecord r;
    r.queued = i;
    b.publish(r);
  }
  const double pub = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / n;
  b.settle();  // on messages: the publishes are applied before anything else is measured
  double maxPub = 0;
  MPI_Reduce(&pub, &maxPub, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  row(scheme == BoardScheme::All ? "board publish (own record into all " + std::to_string(gSize) + " boards)" + tag
                                 : "board publish (own record, own window only)" + tag,
      maxPub, "µs", "all ranks publishing at once; slowest rank's mean");
  if (scheme == BoardScheme::All) {
    const int m = 2000000;
    std::uint64_t sink = 0;
    t0 = Clock::now();
    for (int i = 0; i < m; ++i) {
      auto r = b.read(i % gSize);
      sink += r ? r->queued : 1;
    }
    const double rd = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / m;
    row("local board read (one record, seqlock)", rd, "ns", sink == 42 ? "" : "rank 0, no writer active");
    t0 = Clock::now();
    for (int i = 0; i < m; ++i) sink += static_cast<std::uint64_t>(b.bound());
    row("local bound read", std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / m, "ns", "");
    // timed one-sided read of a peer (what the latency probe does)
    if (gSize > 1) {
      // On messages a read returns the previous one's round trip (if answered): progress until
      // 1000 have been measured.
      double tot = 0;
      for (int got = 0; got < 1000;) {
        if (const auto us = b.timedRead((gRank + 1) % gSize)) tot += *us, ++got;
        b.progress();
      }
      row("timed read of a peer's record (MPI_Get + flush, or a request and its answer)" + tag, tot / 1000, "µs", "rank 0 → rank 1");
      b.settle();
    }
  }
  // A thief's fetch of k records at their owners (scheme sample's read; the push board's fresh
  // read after a refusal): every rank fetching at once, k distinct other ranks each time.
  for (int k : {1, 2, 4}) {
    if (k > gSize - 1) break;
    std::vector<int> peers;
    for (int i = 1; i <= k; ++i) peers.push_back((gRank + i) % gSize);
    std::vector<std::optional<RankRecord>> out(peers.size());
    const int reps = 500;
    b.settle();
    t0 = Clock::now();
    for (int i = 0; i < reps; ++i) b.fetch(peers, out);
    const double f = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / reps;
    b.settle();  // on messages: answer the reads of ranks still fetching
    double maxF = 0;
    MPI_Reduce(&f, &maxF, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    row("fetch " + std::to_string(k) + " record(s) at their owners (3 flushed phases)" + tag, maxF, "µs",
        "all ranks fetching at once; slowest rank's mean");
  }
  b.settle();
}

// Ping-pong of bound improvements between ranks 0 and 1 over the raw board: one-way time.
void boundPingPongBoard() {
  if (gSize < 2) return;
  LoadBoard b(MPI_COMM_WORLD, BoundSense::Maximise, BoardScheme::All, gTransport);
  const int n = 500;
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = Clock::now();
  for (int k = 0; k < 2 * n; ++k) {
    const bool mine = (k % 2) == gRank;
    if (gRank > 1) break;
    if (mine) b.publishBound(k);
    else
      while (b.bound() < k) {
        b.progress();  // on messages: the bound arrives here
        // On a window without remote atomics in the network (osc ucx over TCP) the writer's
        // accumulate completes only when this rank enters MPI; the comm thread does so every turn.
        int flag = 0;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        std::this_thread::yield();
      }
  }
  const double oneWay = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / (2 * n);
  row(std::string("bound propagation, raw board (") +
          (b.transport() == BoardTransport::Rma ? "MPI_Accumulate MAX + flush → remote load" : "a message, applied on arrival") + ")",
      oneWay, "µs", "ping-pong / 2, ranks 0↔1");
  b.settle();
}

// Same through the comm threads: offerBound on one rank → onBound on the other.
void boundPingPongComm(CommOptions o, const char* label) {
  if (gSize < 2) return;
  Job j(o);
  j.work.hold = true;
  j.comm->start();
  const int n = 200;
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = Clock::now();
  for (int k = 0; k < 2 * n && gRank < 2; ++k) {
    if ((k % 2) == gRank) j.comm->offerBound(k);
    else
      while (j.work.bound.load() < k) std::this_thread::yield();
  }
  const double oneWay = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / (2 * n);
  row(std::string("bound propagation via comm threads (offerBound → onBound), ") + label, oneWay, "µs",
      "ping-pong / 2, ranks 0↔1");
  MPI_Barrier(MPI_COMM_WORLD);
  j.work.release();
  j.comm->waitTermination();
}

// CPU of a comm thread over `seconds` with nothing to do (hungry=false: a busy rank) or with a
// thief that keeps failing (hungry=true: every rank wants work, nobody has any).
void idleCpu(bool hungry, double seconds) {
  Job j(CommOptions{});
  j.work.hold = true;
  j.work.alwaysHungry = hungry;
  j.comm->start();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  MPI_Barrier(MPI_COMM_WORLD);
  j.work.alwaysHungry = false;
  j.work.release();
  j.comm->waitTermination();
  const auto s = j.stats();
  if (gRank == 0) {
    double cpu = 0, wall = 0, sleeps = 0;
    for (const auto& r : s) {
      cpu += r.commCpuSeconds;
      wall += r.commWallSeconds;
      sleeps += static_cast<double>(r.commSleeps);
    }
    row(hungry ? "comm thread CPU, every rank hungry (failed steals, backoff)" : "comm thread CPU, busy rank (nothing to do)",
        100.0 * cpu / wall, "% of one core", "mean over ranks, " + std::to_string(static_cast<int>(seconds)) + " s");
    // A busy rank's turns do little beyond the transport's progress: its CPU per sleep is what a
    // sleep, a wake-up and one turn of MPI progress cost on this path (jackdaw-sim's --wake-cpu-us).
    if (!hungry && sleeps > 0)
      row("comm thread CPU per sleep, busy rank", 1e6 * cpu / sleeps, "µs", "its sleeps, wake-ups and turns");
  }
}

}  // namespace

int main(int argc, char** argv) {
  Runtime mpi(argc, argv);
  gRank = mpi.rank();
  gSize = mpi.size();
  if (const char* t = std::getenv("JACKDAW_BENCH_BOARD_TRANSPORT"))
    gTransport = std::string(t) == "messages" ? BoardTransport::Messages : std::string(t) == "rma" ? BoardTransport::Rma : BoardTransport::Auto;
  if (gRank == 0) {
    std::printf("ranks: %d\n\n| measurement | value | unit | note |\n|---|---|---|---|\n", gSize);
  }
  CommOptions fast;
  fast.maxSleep = std::chrono::microseconds(20);
  stealRoundTrip("default backoff 20 µs → 1 ms", CommOptions{}, 300);
  stealRoundTrip("backoff capped at 20 µs", fast, 300);
  boardCosts(BoardScheme::All);
  boardCosts(BoardScheme::Sample);
  boundPingPongBoard();
  boundPingPongComm(CommOptions{}, "default backoff");
  boundPingPongComm(fast, "backoff capped at 20 µs");
  idleCpu(false, 2.0);
  idleCpu(true, 2.0);
  return 0;
}
