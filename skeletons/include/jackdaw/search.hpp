// Jackdaw on one process, in one include and without MPI: the model concepts, the ready-made
// enumerators, every skeleton by name, and jackdaw::local::solve over this process's threads.
//
//   #include "jackdaw/search.hpp"
//   jackdaw::local::SolveOptions o;
//   o.skeleton = "budget";  o.settings.budget = 10000;  o.settings.parallel.runtime.threads = 4;
//   auto r = jackdaw::local::solve<MyModel, jackdaw::Optimisation>(space, root, params, o);
//
// jackdaw::SolveOptions (distributed/solve.hpp) extends these options with the ranks' own, and a
// Jackdaw built without MPI (JACKDAW_WITH_MPI=OFF) installs a jackdaw/jackdaw.hpp that names
// these jackdaw::solve, jackdaw::SolveOptions and jackdaw::Job: a program written against
// jackdaw.hpp builds with either package and runs on one process without MPI.
#pragma once

#include <string>
#include <utility>

#include "jackdaw/core/enumerators.hpp"
#include "jackdaw/core/model.hpp"
#include "jackdaw/core/stop.hpp"
#include "jackdaw/skeletons/table.hpp"

namespace jackdaw::local {

struct SolveOptions {
  std::string skeleton = "depth_bounded";  // any name in skeletons::names()
  skeletons::Settings settings{};          // workers, binding, -d, -b, chunked, discrepancy
  StopFlag* stop = nullptr;                // set it (e.g. from a signal handler) to stop the search
};

// M and K are named; the space, root and params are deduced so that a mistake in the model is one
// static_assert (core/model_check.hpp). Table (skeletons::Only<...>) limits the skeletons compiled in.
template <class M, class K, class Table = skeletons::All, class S = jackdaw::detail::SpaceOrNone<M>,
          class R = jackdaw::detail::NodeOrNone<M>, class P = jackdaw::detail::ParamsOrDefault<M>>
auto solve(const S& space, R root, const P& params = P{}, const SolveOptions& o = {}) {
  StopFlag own;
  return skeletons::run<M, K, Table>(o.skeleton, space, std::move(root), params, o.stop ? *o.stop : own, o.settings);
}

// The job of one process, as jackdaw::comm::Runtime is an MPI job's: rank 0 of 1.
class Job {
 public:
  Job(int& /*argc*/, char**& /*argv*/) {}
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;
  int rank() const noexcept { return 0; }
  int size() const noexcept { return 1; }
};

}  // namespace jackdaw::local
