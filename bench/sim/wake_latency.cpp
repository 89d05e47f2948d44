// wake_latency: how late a sleeping thread runs again on a host whose cores are all busy, measured
// without MPI and without Jackdaw, so that a constant for jackdaw-sim's scheduling-delay model
// comes from its own experiment and is not fitted to the runs the simulator is validated against.
//
//   wake_latency --procs 1,2,3,4 --seconds 3 --reps 3
//
// Each of P processes (as P MPI ranks on one host) has one spinning thread (a worker: never
// sleeps) and one "comm" thread that does what Jackdaw's comm thread does between turns: it sleeps
// on a condition variable with a timeout (timer slack 1 µs, as CommThread::run sets) or until the
// spinner notifies it (the doorbell), then works for a few µs of its own CPU. Measured per wake-up:
//   late   — wall time from when it should have run (timeout expired / notified) to when it ran;
//   cpu     — the comm thread's CPU time per cycle beyond the turn's own work (what sleeping and
//             waking costs it: futex, timer, context switches, the yield);
//   stretch — wall time of the short turn beyond its CPU time (it was off the CPU inside the turn;
//             with --yield the turn starts with sched_yield(), as Open MPI's progress loop does when
//             it found nothing to do on an oversubscribed node).
// Process counts alternate (1 2 3 4 1 2 3 4 ...); each row gives the median over reps of each
// rep's mean and 90th percentile, and the spread (max - min) of the means.
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

namespace {

std::int64_t wallNs() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1'000'000'000LL + t.tv_nsec;
}

std::int64_t threadCpuNs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1'000'000'000LL + t.tv_nsec;
}

// Burns `ns` of this thread's CPU time; returns the wall time it took.
std::int64_t burnCpu(std::int64_t ns) {
  const std::int64_t w0 = wallNs(), c0 = threadCpuNs();
  volatile std::uint64_t x = 1;
  while (threadCpuNs() - c0 < ns)
    for (int i = 0; i < 64; ++i) x = x * 6364136223846793005ULL + 1;
  return wallNs() - w0;
}

struct Sample {
  std::int64_t lateNs, stretchNs, cpuNs;  // cpuNs: the comm thread's CPU for the whole cycle
};

struct Options {
  std::vector<int> procs{1, 2, 3, 4};
  double seconds = 3;
  int reps = 3;
  int sleepUs = 20;       // the comm thread's shortest sleep (CommOptions::minSleep)
  int turnUs = 5;         // CPU of one comm turn
  int doorbellUs = 500;   // the spinner notifies the comm thread after this much of its own CPU
  bool doorbell = false;  // false: timed sleeps only
  bool yield = false;     // the turn starts with sched_yield(), as Open MPI's progress loop does
                          // when it found nothing and the node is oversubscribed
};

// One process: a spinner and a comm thread for `seconds`; writes its samples to `fd`.
void child(const Options& o, int fd) {
  std::mutex m;
  std::condition_variable cv;
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> notifiedAt{0};
  bool rung = false;
  std::thread spinner([&] {
    while (!stop.load(std::memory_order_relaxed)) {
      burnCpu(o.doorbell ? o.doorbellUs * 1000LL : 1'000'000LL);
      if (o.doorbell) {
        {
          std::lock_guard l(m);
          rung = true;
          notifiedAt.store(wallNs(), std::memory_order_relaxed);
        }
        cv.notify_one();
      }
    }
  });
  std::vector<Sample> out;
  out.reserve(1 << 16);
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
  const std::int64_t end = wallNs() + static_cast<std::int64_t>(o.seconds * 1e9);
  std::int64_t cycleCpu = threadCpuNs();
  while (wallNs() < end) {
    std::int64_t due = 0;
    {
      std::unique_lock l(m);
      if (o.doorbell) {
        cv.wait_for(l, std::chrono::milliseconds(100), [&] { return rung; });
        if (!rung) continue;
        rung = false;
        due = notifiedAt.load(std::memory_order_relaxed);
      } else {
        due = wallNs() + o.sleepUs * 1000LL;
        cv.wait_for(l, std::chrono::microseconds(o.sleepUs), [] { return false; });
      }
    }
    const std::int64_t late = wallNs() - due;
    const std::int64_t w0 = wallNs(), c0 = threadCpuNs();
    if (o.yield) sched_yield();
    burnCpu(o.turnUs * 1000LL);
    const std::int64_t c1 = threadCpuNs();
    out.push_back({late, (wallNs() - w0) - (c1 - c0), c1 - cycleCpu});
    cycleCpu = c1;
  }
  stop = true;
  spinner.join();
  const auto* p = reinterpret_cast<const char*>(out.data());
  std::size_t left = out.size() * sizeof(Sample);
  while (left > 0) {
    const ssize_t n = write(fd, p, left);
    if (n <= 0) _exit(2);
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  _exit(0);
}

// Runs P processes at once; returns all their samples.
std::vector<Sample> runOnce(const Options& o, int procs) {
  std::vector<int> fds;
  std::vector<pid_t> pids;
  for (int i = 0; i < procs; ++i) {
    int p[2];
    if (pipe(p) != 0) throw std::runtime_error("pipe failed");
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      close(p[0]);
      child(o, p[1]);
    }
    close(p[1]);
    fds.push_back(p[0]);
    pids.push_back(pid);
  }
  std::vector<Sample> all;
  for (int fd : fds) {
    std::vector<char> buf;
    char chunk[1 << 16];
    for (ssize_t n; (n = read(fd, chunk, sizeof chunk)) > 0;) buf.insert(buf.end(), chunk, chunk + n);
    close(fd);
    const auto* s = reinterpret_cast<const Sample*>(buf.data());
    all.insert(all.end(), s, s + buf.size() / sizeof(Sample));
  }
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("a child failed");
  }
  return all;
}

struct Summary {
  double meanUs, p90Us;
};

Summary summarise(std::vector<std::int64_t> v) {
  if (v.empty()) return {0, 0};
  double sum = 0;
  for (auto x : v) sum += static_cast<double>(x);
  const std::size_t k = v.size() * 9 / 10;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return {1e-3 * sum / static_cast<double>(v.size()), 1e-3 * static_cast<double>(v[k])};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double spread(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *hi - *lo;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"How late a sleeping thread runs again when every core is busy (see the file's comment)"};
  app.add_option("--procs", o.procs, "process counts, each with one spinner and one sleeper")->delimiter(',');
  app.add_option("--seconds", o.seconds, "length of one run")->check(CLI::PositiveNumber);
  app.add_option("--reps", o.reps, "runs per process count (alternated)")->check(CLI::PositiveNumber);
  app.add_option("--sleep-us", o.sleepUs, "timed sleep of the comm thread")->check(CLI::PositiveNumber);
  app.add_option("--turn-us", o.turnUs, "CPU of one comm turn")->check(CLI::NonNegativeNumber);
  app.add_option("--doorbell-us", o.doorbellUs, "spinner CPU between two notifications")->check(CLI::PositiveNumber);
  app.add_flag("--doorbell", o.doorbell, "woken by the spinner's notification instead of a timeout");
  app.add_flag("--yield", o.yield, "each turn starts with sched_yield() (Open MPI's progress when oversubscribed)");
  CLI11_PARSE(app, argc, argv);
  for (int p : o.procs)
    if (p < 1) {
      std::fprintf(stderr, "wake_latency: --procs: each count must be at least 1\n");
      return 2;
    }

  const unsigned cores = std::thread::hardware_concurrency();
  std::vector<std::vector<double>> late(o.procs.size()), late90(o.procs.size()), stretch(o.procs.size()),
      stretch90(o.procs.size()), wakes(o.procs.size()), cpu(o.procs.size());
  for (int rep = 0; rep < o.reps; ++rep)
    for (std::size_t i = 0; i < o.procs.size(); ++i) {
      const auto samples = runOnce(o, o.procs[i]);
      std::vector<std::int64_t> l, s;
      double cpuSum = 0;
      for (const auto& x : samples) {
        l.push_back(x.lateNs);
        s.push_back(x.stretchNs);
        cpuSum += static_cast<double>(x.cpuNs - o.turnUs * 1000LL);
      }
      cpu[i].push_back(samples.empty() ? 0.0 : 1e-3 * cpuSum / static_cast<double>(samples.size()));
      const auto a = summarise(l), b = summarise(s);
      late[i].push_back(a.meanUs);
      late90[i].push_back(a.p90Us);
      stretch[i].push_back(b.meanUs);
      stretch90[i].push_back(b.p90Us);
      wakes[i].push_back(static_cast<double>(samples.size()) / (o.seconds * o.procs[i]));
    }
  std::printf("wake-ups %s, %u cores, %d reps of %.1f s, turn %d us CPU%s\n\n",
              o.doorbell ? ("by notification every " + std::to_string(o.doorbellUs) + " us of spinner CPU").c_str()
                         : ("by timeout after " + std::to_string(o.sleepUs) + " us").c_str(),
              cores, o.reps, o.seconds, o.turnUs, o.yield ? " starting with sched_yield()" : "");
  std::printf("| processes | spinners per core | late us, mean (spread) | late us, p90 | turn stretch us, mean | "
              "stretch p90 | CPU us per cycle beyond the turn | wake-ups/s per process |\n|---|---|---|---|---|---|---|---|\n");
  for (std::size_t i = 0; i < o.procs.size(); ++i)
    std::printf("| %d | %.2f | %.1f (%.1f) | %.1f | %.1f | %.1f | %.1f | %.0f |\n", o.procs[i],
                static_cast<double>(o.procs[i]) / cores, median(late[i]), spread(late[i]), median(late90[i]),
                median(stretch[i]), median(stretch90[i]), median(cpu[i]), median(wakes[i]));
  return 0;
}
