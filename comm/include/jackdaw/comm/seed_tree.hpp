// Seeding down a K-ary tree of ranks (CommOptions::seedArity, the apps' --seed-tree K): how work
// first reaches every rank, instead of each rank stealing by its policy from the start.
//
// Steal-only ramp-up at P ranks has every thief ask a random (or the same best-scored) rank while
// only rank 0 holds work, so rank 0 is flooded and most requests are refused; jackdaw-sim shows half
// the ranks of 1,000 waiting seconds for a first task (bench/results/sim_study_grid.md). With a tree:
// - rank r > 0 sends its first request to its parent (r − 1) / K, flagged as a seed request, without
//   asking its policy;
// - a rank answers a seed request with work as soon as it has tasks to spare (seedableCount in
//   local_work.hpp: unlike a steal it may take what the rank's own idle workers would; half of
//   them, as a steal), and holds it meanwhile, while it has work of its own or still waits for its
//   own seed, for at most seedHoldMax; otherwise it refuses;
// - a rank's seed phase ends with the answer to its seed request that brings work, or with a
//   refusal that names no other rank; from then on, and for every later hunger, its policy picks
//   victims as usual;
// - a rank that refuses a seed request (it ran dry, or held it for seedHoldMax) names its own tree
//   parent in the refusal (CommOptions::seedRedirect), and the thief asks that rank next: a parent
//   handed one small task often finishes it before it has anything to pass down, while the rank
//   that fed it may still have plenty. Redirects only climb, so a seed phase asks at most
//   depth + 1 ranks, rank 0 last (it names nobody).
// So rank 0 serves K children, each of them K more, and every rank has work after about log_K(P)
// hand-overs. The comm thread and jackdaw-sim's comm actor both follow these functions.
// Measured (bench/results/sim_study_grid.md, "Past the cluster with a tree that can fill it" and
// "Seeding redirects"; variants_ab.md): at 1,000 × 32 on UTS T1XXL up to 2.4×
// shorter runs (random), 0.97–1.7× for the board-driven policies; nothing at 20 × 16 on NS genus 47;
// a slower median on 4-rank MaxClique here. Off by default. Redirects (on by default): on UTS T1L at
// 100 and 250 × 32, 86–100 % of ranks seeded with work instead of 16–72 %, random 2.2–4.9× faster,
// the board-driven policies within the spread of 5 seeds.
//
//   if (int p = seedParent(rank, K); p >= 0) sendSeedRequest(p);
#pragma once

namespace jackdaw::comm {

// The rank a seed request goes to, or -1 (no tree, or rank 0: it holds the root).
inline int seedParent(int rank, int arity) noexcept { return arity > 0 && rank > 0 ? (rank - 1) / arity : -1; }

// The rank a victim that refuses a seed request sends its thief to: its own tree parent, or -1
// (rank 0, or redirects off).
inline int seedRedirect(int victim, int arity, bool redirect) noexcept { return redirect ? seedParent(victim, arity) : -1; }

// Whether a thief whose seed request was refused asks the rank the refusal named (and stays in its
// seed phase): a rank other than itself, while the search goes on.
inline bool followSeedRedirect(int named, int self, int ranks, bool searchOver) noexcept {
  return named >= 0 && named != self && named < ranks && !searchOver;
}

// Whether a victim with nothing to give now keeps a seed request to answer later rather than
// refusing it: it will have work (its own tasks run or wait) or expects some (its own seed request
// is still out), and the request has not waited its maximum.
inline bool holdSeedRequest(bool waitingForOwnSeed, bool hasWork, double heldUs, double holdMaxUs) noexcept {
  return (waitingForOwnSeed || hasWork) && heldUs < holdMaxUs;
}

}  // namespace jackdaw::comm
