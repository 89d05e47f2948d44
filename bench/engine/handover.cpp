// handover: how long a oneTBB worker takes to start a task that a busy thread has just spawned,
// with the threads free to run anywhere and with each pinned to its own core (--bind).
//
//   handover --rounds 20 --handovers 8
//
// Each round is a fresh process (forked before oneTBB starts, as a search's process is new) with a
// 2-worker WorkerRuntime, the engine's own: the caller spawns one task, spins until the other worker
// has started it, then searches (spins) for --busy-ms before the next, as a worker does between
// splits. The other worker sleeps in between, so each hand-over wakes it. Rounds alternate free and
// pinned (RuntimeOptions::bind). Printed per hand-over index: the median and the maximum latency
// over the rounds, and how many took over 1 ms. Needs 2 CPUs. Not a test.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <vector>

#include <CLI/CLI.hpp>

#include "jackdaw/core/cpu_set.hpp"
#include "jackdaw/core/worker_runtime.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// One round: the latency of each hand-over, in microseconds.
std::vector<double> round(bool pinned, int handovers, double busyMs) {
  jackdaw::WorkerRuntime rt({.threads = 2, .bind = pinned});
  std::vector<double> us;
  rt.runAndWait([&] {
    for (int k = 0; k < handovers; ++k) {
      std::atomic<bool> started{false};
      Clock::time_point t1;
      const auto t0 = Clock::now();
      rt.spawn([&] {
        t1 = Clock::now();
        started.store(true, std::memory_order_release);
      });
      while (!started.load(std::memory_order_acquire)) {}
      us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      const auto until = Clock::now() + std::chrono::duration<double, std::milli>(busyMs);
      while (Clock::now() < until) {}
    }
  });
  return us;
}

// round() in a child process, its latencies back through a pipe (empty if the child failed).
std::vector<double> freshRound(bool pinned, int handovers, double busyMs) {
  int fd[2];
  if (pipe(fd) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const auto us = round(pinned, handovers, busyMs);
    const auto bytes = static_cast<ssize_t>(us.size() * sizeof(double));
    _exit(write(fd[1], us.data(), static_cast<std::size_t>(bytes)) == bytes ? 0 : 1);
  }
  close(fd[1]);
  std::vector<double> us(static_cast<std::size_t>(handovers));
  std::size_t got = 0;
  const std::size_t want = us.size() * sizeof(double);
  while (got < want) {
    const ssize_t n = read(fd[0], reinterpret_cast<char*>(us.data()) + got, want - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got != want || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return {};
  return us;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Latency of handing a task from a busy thread to a oneTBB worker, free and pinned"};
  int rounds = 20, handovers = 8;
  double busyMs = 5;
  app.add_option("--rounds", rounds, "Rounds per variant (alternated)")->check(CLI::Range(1, 100000));
  app.add_option("--handovers", handovers, "Hand-overs per round")->check(CLI::Range(1, 100000));
  app.add_option("--busy-ms", busyMs, "The caller's busy time between hand-overs (ms)")->check(CLI::Range(0.0, 1e4));
  CLI11_PARSE(app, argc, argv);
  if (jackdaw::CpuSet::current().count() < 2) {
    std::fprintf(stderr, "handover: needs 2 CPUs, this process may use %d\n", jackdaw::CpuSet::current().count());
    return 2;
  }
  std::vector<std::vector<double>> lat[2];  // [pinned][round][hand-over]
  for (int r = 0; r < rounds; ++r)
    for (int pinned : {0, 1}) {
      auto us = freshRound(pinned == 1, handovers, busyMs);
      if (us.empty()) {
        std::fprintf(stderr, "handover: a round's process failed\n");
        return 1;
      }
      lat[pinned].push_back(std::move(us));
    }
  std::printf("| hand-over | free: median us | free: max us | free: over 1 ms | pinned: median us | pinned: max us | pinned: over 1 ms |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < handovers; ++k) {
    std::printf("| %d", k + 1);
    for (int pinned : {0, 1}) {
      std::vector<double> v;
      for (const auto& r : lat[pinned]) v.push_back(r[static_cast<std::size_t>(k)]);
      std::sort(v.begin(), v.end());
      const auto slow = std::count_if(v.begin(), v.end(), [](double x) { return x > 1000; });
      std::printf(" | %.0f | %.0f | %ld/%zu", v[v.size() / 2], v.back(), static_cast<long>(slow), v.size());
    }
    std::printf(" |\n");
  }
}
