#include "jackdaw/comm/runtime.hpp"

#include <spdlog/spdlog.h>

#include <stdexcept>
#include <string>

namespace jackdaw::comm {

const char* threadLevelName(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "unknown";
  }
}

Runtime::Runtime(int& argc, char**& argv) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) {
    MPI_Query_thread(&provided_);
  } else {
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided_);
    owns_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (rank_ == 0) spdlog::debug("rank 0: MPI thread level provided: {}", threadLevelName(provided_));
  if (provided_ < MPI_THREAD_MULTIPLE) {
    std::string msg = std::string("MPI provides only ") + threadLevelName(provided_) +
                      "; Jackdaw's comm thread needs MPI_THREAD_MULTIPLE (rebuild Open MPI with thread support)";
    if (owns_) MPI_Finalize();
    owns_ = false;
    throw std::runtime_error(msg);
  }
}

Runtime::~Runtime() {
  if (!owns_) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

}  // namespace jackdaw::comm
