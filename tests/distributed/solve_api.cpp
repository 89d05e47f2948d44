// The library API from a user's own main(): jackdaw::solve on every rank returns the same value
// as seq, on every rank, for every parallel skeleton: 8 queens (92 solutions, OEIS A000170) and a
// subset-sum optimum. Run alone (one process) and under mpirun.
#include <iostream>

#include "../core/toy_models.hpp"
#include "jackdaw/jackdaw.hpp"
#include "jackdaw/skeletons/seq.hpp"

int main(int argc, char** argv) {
  jackdaw::comm::Runtime mpi(argc, argv);
  using Count = jackdaw::Enumeration<toy::CountSolutions>;
  const toy::Queens::Space board{8};
  const auto seqCount = jackdaw::seq::search<toy::Queens, Count>(board, {}, {}).enumerator.get();
  const toy::SubsetSum::Space items{{31, 27, 23, 19, 17, 13, 11, 7, 5, 3, 2}, 100};
  const toy::SubsetSum::Node root{0, 0, 158};
  const auto seqBest = *jackdaw::seq::search<toy::SubsetSum, jackdaw::Optimisation>(items, root, {}).objective;
  int bad = 0;
  for (const auto& name : jackdaw::skeletons::names()) {
    if (!jackdaw::skeletons::isParallel(name)) continue;
    jackdaw::SolveOptions o;
    o.skeleton = name;
    o.settings.parallel.runtime.threads = 2;
    o.settings.budget = 10;
    const auto count = jackdaw::solve<toy::Queens, Count>(board, {}, {}, o);
    const auto best = jackdaw::solve<toy::SubsetSum, jackdaw::Optimisation>(items, root, {}, o);
    const bool ok = count.enumerator.get() == 92 && count.enumerator.get() == seqCount && count.complete() &&
                    best.objective && *best.objective == seqBest && best.best && best.best->sum == seqBest;
    std::cout << "rank " << mpi.rank() << "/" << mpi.size() << " " << name << ": " << count.enumerator.get()
              << " solutions, optimum " << (best.objective ? *best.objective : -1) << (ok ? " ok" : " WRONG") << "\n";
    bad += ok ? 0 : 1;
  }
  return bad == 0 ? 0 : 1;
}
