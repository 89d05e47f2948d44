// main() for multi-rank GoogleTest binaries: every rank runs every test; only rank 0 prints the
// per-test report; the exit code is non-zero if any rank failed.
#include <gtest/gtest.h>

#include "jackdaw/comm/runtime.hpp"

int main(int argc, char** argv) {
  jackdaw::comm::Runtime mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (mpi.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0, anyFailed = 0;
  MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (failed) std::fprintf(stderr, "rank %d: tests failed\n", mpi.rank());
  return anyFailed;
}
