// pingpong: MPI round trips between ranks 0 and 1 (the latency and bandwidth jackdaw-sim's
// platform needs). Prints one line per size on rank 0: bytes, one-way µs (median of 9 batches),
// and the rate in Gb/s.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

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
  MPI_Finalize();
  return 0;
}
