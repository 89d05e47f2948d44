// One MPI process's runtime: initialises MPI with thread support, knows rank and size, and
// finalises on destruction (RAII). Create exactly one, first thing in main():
//
//   jackdaw::comm::Runtime mpi(argc, argv);       // throws if MPI_THREAD_MULTIPLE is missing
//   if (mpi.rank() == 0) ...
//
// A plain `program ...` without mpirun works: Open MPI starts a singleton of size 1 (isolated, and
// without network transports: runtime.cpp). The app frame (app::runMain) does not even construct a
// Runtime in a process no launcher started, unless a checkpoint needs MPI (startedByLauncher).
// We need MPI_THREAD_MULTIPLE because the comm thread drives point-to-point and RMA traffic while
// the main thread may run collectives (setup checks, result gather) on another communicator.
#pragma once

#include <mpi.h>

namespace jackdaw::comm {

class Runtime {
 public:
  Runtime(int& argc, char**& argv);
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  ~Runtime();

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  int threadLevel() const noexcept { return provided_; }
  // MPI_COMM_WORLD; the comm layer dups it for its own traffic, so tags never clash with apps.
  MPI_Comm world() const noexcept { return MPI_COMM_WORLD; }

 private:
  int rank_ = 0, size_ = 1, provided_ = MPI_THREAD_SINGLE;
  bool owns_ = false;  // false when MPI was already initialised by someone else
};

const char* threadLevelName(int level);

// True when a launcher (mpirun, srun, a PMI/PMIx server) started this process: its variables are
// set. Otherwise the process is one rank on its own, and MPI would be a singleton.
bool startedByLauncher();

// True between MPI_Init and MPI_Finalize (a process may run as one rank without MPI at all).
bool mpiActive();

}  // namespace jackdaw::comm
