// pingpong: MPI round trips between ranks 0 and 1 (the latency and bandwidth jackdaw-sim's
// platform needs). Prints one line per size on rank 0: bytes, one-way µs (median of 9 batches) and
// the rate in Gb/s; then "cpu" and the CPU one 64-byte message costs its sender and its receiver
// together, in µs, as a comm thread meets it: rank 0 sends one every 200 µs between sleeps, rank
// 1 wakes every 1 ms and takes what arrived; each rank's process CPU less that of the same loop
// without messages (the median of three such pairs). Over TCP between emulated hosts that includes
// the kernel's network path, on the same cores as the workers (jackdaw-sim's --comm-cost-us).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>
#include <vector>

namespace {
double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) std::fprintf(stderr, "pingpong: needs 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  for (int bytes : {8, 64, 1024, 65536, 1 << 20, 8 << 20}) {
    std::vector<char> buf(static_cast<std::size_t>(bytes));
    const int reps = bytes >= (1 << 20) ? 5 : 200;
    std::vector<double> batches;
    for (int b = 0; b < 9; ++b) {
      MPI_Barrier(MPI_COMM_WORLD);
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < reps && rank < 2; ++i) {
        if (rank == 0) {
          MPI_Send(buf.data(), bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
          MPI_Recv(buf.data(), bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(buf.data(), bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(buf.data(), bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
      }
      batches.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
                        (2.0 * reps));
    }
    std::sort(batches.begin(), batches.end());
    const double oneWay = batches[batches.size() / 2];
    if (rank == 0) std::printf("%d %.2f %.4f\n", bytes, oneWay, bytes * 8.0 / (oneWay * 1e3));
  }
  // The CPU of a message, as a sleeping comm thread meets it: the loop with and without messages.
  const auto paced = [&](bool send) {
    constexpr int kMessages = 2000;
    char msg[64] = {};
    MPI_Barrier(MPI_COMM_WORLD);
    const double c0 = cpuSeconds();
    if (rank == 0) {
      for (int i = 0; i < kMessages; ++i) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        if (send) MPI_Send(msg, 64, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
      }
      MPI_Send(msg, 0, MPI_CHAR, 1, 2, MPI_COMM_WORLD);  // the end
    } else if (rank == 1) {
      for (bool done = false; !done;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        for (;;) {
          int flag = 0;
          MPI_Status st;
          MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
          if (!flag) break;
          MPI_Recv(msg, 64, MPI_CHAR, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          done = done || st.MPI_TAG == 2;
        }
      }
    }
    double mine = cpuSeconds() - c0, both = 0;
    MPI_Reduce(&mine, &both, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return both * 1e6 / kMessages;
  };
  std::vector<double> diffs;  // three pairs, alternated: the median difference
  for (int pair = 0; pair < 3; ++pair) {
    const double without = paced(false), with = paced(true);
    diffs.push_back(with - without);
  }
  std::sort(diffs.begin(), diffs.end());
  if (rank == 0) std::printf("cpu %.2f\n", diffs[1]);
  MPI_Finalize();
  return 0;
}
