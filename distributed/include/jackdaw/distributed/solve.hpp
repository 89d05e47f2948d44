// One call for a whole search: one options struct in, the result out, on one process or on every
// rank of an MPI job.
//
//   #include "jackdaw/jackdaw.hpp"
//   jackdaw::SolveOptions o;
//   o.skeleton = "budget";  o.settings.budget = 10000;  o.settings.parallel.runtime.threads = 4;
//   auto r = jackdaw::solve<MyModel, jackdaw::Optimisation>(space, root, params, o);
//   // r.objective, r.best, r.stats, r.complete() ...
//
// On several ranks, from your own main(): start MPI with thread support first, then call solve on
// every rank with the same arguments. Every rank returns the whole result (rank 0 combines the
// ranks' shares and sends the total to all):
//
//   int main(int argc, char** argv) {
//     jackdaw::comm::Runtime mpi(argc, argv);       // or MPI_Init_thread(MPI_THREAD_MULTIPLE) yourself
//     auto r = jackdaw::solve<MyModel, jackdaw::Enumeration<MyCount>>(space, root, {}, o);
//   }
//
// Without MPI initialised, or on one rank, the search runs on this process's threads. If the
// model throws on any rank, every rank throws (rank 0 SearchFailed with the rank and message,
// the others FailedElsewhere); nothing hangs. `seq` runs on one process only.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "jackdaw/comm/session.hpp"
#include "jackdaw/comm/wire.hpp"
#include "jackdaw/distributed/launch.hpp"
#include "jackdaw/distributed/model_check.hpp"
#include "jackdaw/distributed/saved_work.hpp"
#include "jackdaw/search.hpp"
#include "jackdaw/skeletons/table.hpp"

namespace jackdaw {

// The one-process call's options (skeleton, settings: workers per rank, binding, -d, -b, ...; stop;
// jackdaw/search.hpp), and what ranks add.
struct SolveOptions : local::SolveOptions {
  comm::SessionConfig session{};           // between ranks: communicator, victim policy, seed
  distributed::Report* report = nullptr;   // rank 0: per-rank numbers, if wanted
  // Resume from saved work and/or keep what an interruption cuts short (saved_work.hpp); the
  // files are the caller's business (the app frame's --checkpoint / --resume).
  distributed::Checkpointing* checkpointing = nullptr;
  // TEST ONLY: faults a test injects (distributed/test_hooks.hpp); null in production.
  const distributed::TestHooks* test = nullptr;
};

namespace detail {
// The whole result (share and seconds), for the broadcast from rank 0.
template <class Result>
struct WholeResult {
  Result& r;
  template <class Archive>
  void serialize(Archive& ar) {
    distributed::transferShare(ar, r);
    ar(r.seconds);
  }
};
}  // namespace detail

// M and K are named; the space, root and params are deduced so that a mistake in the model is
// reported by one static_assert here (distributed/model_check.hpp), not by overload resolution.
// Table (skeletons::Only<...>) limits the skeletons compiled in, as in skeletons::run.
template <class M, class K, class Table = skeletons::All, class S = detail::SpaceOrNone<M>,
          class R = detail::NodeOrNone<M>,
          class P = detail::ParamsOrDefault<M>>
auto solve(const S& space, R root, const P& params = P{}, const SolveOptions& o = {}) {
  if constexpr (!distributed::checkModelForRanks<M, K, S, R, P>()) {
    return detail::UncheckedResult<M, K>{};
  } else {
    StopFlag local;
    StopFlag& stop = o.stop ? *o.stop : local;
    const distributed::Launch launch(o.session, o.report, o.checkpointing, o.test);
    auto r = skeletons::run<M, K, Table>(o.skeleton, space, typename M::Node(std::move(root)), params, stop, o.settings,
                                  launch);
    if (!launch.spansProcesses()) return r;
    int rank = 0;
    MPI_Comm_rank(o.session.world, &rank);
    std::vector<std::byte> bytes;
    if (rank == 0) {
      detail::WholeResult<SearchResult<M, K>> whole{r};
      comm::wire::Writer writer(bytes);
      writer(whole);
    }
    std::uint64_t n = bytes.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, o.session.world);
    bytes.resize(n);
    MPI_Bcast(bytes.data(), static_cast<int>(n), MPI_BYTE, 0, o.session.world);
    if (rank != 0) {
      SearchResult<M, K> total;
      detail::WholeResult<SearchResult<M, K>> whole{total};
      comm::wire::Reader reader(bytes);
      reader(whole);
      return total;
    }
    return r;
  }
}

}  // namespace jackdaw
