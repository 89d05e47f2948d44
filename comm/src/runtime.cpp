#include "jackdaw/comm/runtime.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

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

// A process that no launcher started (mpirun, srun, a PMI/PMIx server) is an MPI singleton: one
// rank with no peers. Left to itself, Open MPI spawns an orted for it and starts its network
// transports (UCX), most of a trivial run's start-up (bench/results/startup.md). A singleton needs
// neither: it runs isolated, with the shared-memory and self transports, and without hwloc's I/O
// discovery. Variables the user set
// win (setenv does not overwrite).
bool startedByLauncher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMIX_NAMESPACE", "PMI_RANK",
                        "PMI_SIZE", "PMI_FD", "SLURM_PROCID", "OMPI_MCA_orte_hnp_uri"})
    if (std::getenv(v)) return true;
  return false;
}

bool mpiActive() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}

// Every singleton of a user shares one Open MPI session folder (<tmp>/ompi.<host>.<uid>/jf.0): a
// singleton ending removes jf.0 once it looks empty, and another one creating its own folder
// beneath it at that moment fails in MPI_Init (orte_init: "jf.0: No such file or directory"; seen
// when two tests started singletons together). Each singleton gets a session folder of its own
// (mkdtemp: a fresh name, mode 0700, so nothing planted there is followed), removed at exit; a
// folder the user set (OMPI_MCA_orte_tmpdir_base) is left as it is. A process killed outright
// leaves its folder behind, as Open MPI leaves its session folder then.
namespace {
class SingletonSessionDir {
 public:
  void create() {
    if (!path_.empty() || std::getenv("OMPI_MCA_orte_tmpdir_base")) return;
    const char* tmp = std::getenv("TMPDIR");
    std::string name = std::string(tmp && *tmp ? tmp : "/tmp") + "/jackdaw-mpi-XXXXXX";
    if (!mkdtemp(name.data())) return;  // Open MPI's shared folder, as before
    path_ = std::move(name);
    setenv("OMPI_MCA_orte_tmpdir_base", path_.c_str(), 1);
  }
  ~SingletonSessionDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }

 private:
  std::string path_;
};
SingletonSessionDir singletonSessionDir;
}  // namespace

static void lightSingleton() {
  if (startedByLauncher()) return;
  singletonSessionDir.create();
  setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
  setenv("OMPI_MCA_pml", "ob1", 0);
  setenv("OMPI_MCA_btl", "self,vader", 0);
  // hwloc's I/O plugins (PCI, OpenCL, GL: the last tries an X display) say nothing Jackdaw uses.
  setenv("HWLOC_PLUGINS_BLACKLIST", "hwloc_gl,hwloc_opencl,hwloc_pci,hwloc_xml_libxml", 0);
}

Runtime::Runtime(int& argc, char**& argv) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) {
    MPI_Query_thread(&provided_);
  } else {
    lightSingleton();
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
