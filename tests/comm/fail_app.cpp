// A tiny program for the failure tests: `fail_app MODE RANK`.
//   setup  — RANK throws an InputError while "reading its input"; the collective check prints the
//            message once and every rank exits 2.
//   search — RANK's runtime throws inside the comm thread mid-search; the job aborts non-zero.
//   crash  — RANK dies of a signal (std::abort) mid-search; mpirun takes the job down.
//   none   — nothing fails; a short distributed run, exit 0.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "jackdaw/comm/failure.hpp"
#include "jackdaw/comm/session.hpp"
#include "jackdaw/comm/runtime.hpp"
#include "jackdaw/core/errors.hpp"
#include "tree_work.hpp"

using namespace jackdaw::comm;

namespace {
// Tree work that throws from the comm thread's first call on the failing rank.
class FailingWork final : public testing::TreeWork {
 public:
  FailingWork(bool fail) : TreeWork(100000000, 2, 1, 100000), fail_(fail) {}
  bool needsWork() override {
    if (fail_) throw std::runtime_error("corrupt task payload (injected failure)");
    return TreeWork::needsWork();
  }

 private:
  bool fail_;
};
}  // namespace

int main(int argc, char** argv) {
  Runtime mpi(argc, argv);
  if (argc != 3) {
    if (mpi.rank() == 0) std::fprintf(stderr, "usage: fail_app setup|search|none RANK\n");
    return 2;
  }
  const std::string mode = argv[1];
  const int failRank = std::stoi(argv[2]);
  const bool ok = checkSetup(MPI_COMM_WORLD, [&] {
    if (mode == "setup" && mpi.rank() == failRank)
      throw jackdaw::InputError("instances/broken.clq", 3, "expected 'e u v', got 'e 1'");
  });
  if (!ok) return 2;
  FailingWork work(mode == "search" && mpi.rank() == failRank);
  Session comm(SessionConfig{}, 1, work);
  if (mpi.rank() == 0) work.injectRoot();  // a huge tree: only the failure can end this run
  if (mode == "none") comm.requestStop(1);
  comm.start();
  if (mode == "crash" && mpi.rank() == failRank) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::abort();
  }
  comm.waitTermination();
  work.shutdown();
  if (mpi.rank() == 0) std::printf("finished\n");
  return 0;
}
