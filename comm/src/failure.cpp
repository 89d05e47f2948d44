#include "jackdaw/comm/failure.hpp"

#include "jackdaw/comm/runtime.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace jackdaw::comm {

bool collectiveCheck(MPI_Comm comm, const std::optional<std::string>& error) {
  if (!mpiActive()) {  // one rank without MPI: the same message, nothing to agree on
    if (!error) return true;
    std::fprintf(stderr, "rank 0: %s\n", error->c_str());
    std::fflush(stderr);
    return false;
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = error ? rank : size, lowest = size;
  MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, comm);
  if (lowest == size) return true;
  // Only the lowest failing rank's message travels, and only rank 0 prints it.
  int len = rank == lowest ? static_cast<int>(error->size()) : 0;
  MPI_Bcast(&len, 1, MPI_INT, lowest, comm);
  std::vector<char> text(static_cast<std::size_t>(len) + 1, '\0');
  if (rank == lowest) error->copy(text.data(), error->size());
  MPI_Bcast(text.data(), len, MPI_CHAR, lowest, comm);
  if (rank == 0) {
    std::fprintf(stderr, "rank %d: %s\n", lowest, text.data());
    std::fflush(stderr);
  }
  return false;
}

bool checkSetup(MPI_Comm comm, const std::function<void()>& setup) {
  std::optional<std::string> error;
  try {
    setup();
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "unknown error";
  }
  return collectiveCheck(comm, error);
}

void abortJob(int rank, const std::string& message, int code) {
  std::fprintf(stderr, "rank %d: %s\n", rank, message.c_str());
  std::fflush(stderr);
  if (!mpiActive()) std::_Exit(code);  // one rank without MPI: nothing else to stop
  // MPI_Abort asks the launcher to kill every rank. A launcher that cannot reach a lost host may
  // never answer, and MPI_Abort then never returns: this rank at least ends on its own.
  std::thread([rank, code] {
    std::this_thread::sleep_for(std::chrono::seconds(kAbortGraceSeconds));
    std::fprintf(stderr, "rank %d: MPI_Abort did not end the job within %d s; this rank exits on its own\n", rank,
                 kAbortGraceSeconds);
    std::fflush(stderr);
    std::_Exit(code);
  }).detach();
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

}  // namespace jackdaw::comm
