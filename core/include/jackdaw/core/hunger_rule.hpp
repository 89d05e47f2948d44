// The constants of the hunger rule (ParallelOptions::splitOnHunger): how often a running
// depth-first task looks for hungry workers, and how much it hands out when it finds one. The
// skeletons (depth_bounded, budget) and jackdaw-sim's replay of the rule (--split hunger
// --split-chunk rule) both read them here.
#pragma once

#include <cstddef>

namespace jackdaw {

// Nodes between two checks for hunger. A check is a few relaxed loads, but also a call out of the
// engine's loop: every 8 nodes it cost 2 workers about 2 % on UTS T1L (50 ns a node) and NS genus
// 40. Every 32, 2 workers and 2 ranks x 1 ran UTS T1L, T3L and NS 0.5-1.8 % faster, brock400_4
// level; every 64 gained UTS no more in the benchmark's own runs (bench/results/fine_grain.md).
// A hungry worker waits 32 nodes at most: 1.6 µs on UTS, about 20 µs on brock400_4 (0.7 µs a node).
inline constexpr unsigned kHungerEvery = 32;

// Unexplored siblings one split hands out, shallowest first, level after level: for a hungry
// worker of this rank, and for a remote thief, whose steal costs a round trip (tens of µs on one
// node, hundreds across TCP hosts) and should carry enough to pay for it. On binomial trees (UTS
// T3) a subtree's size is heavy-tailed, so the work a split carries grows faster than the number
// of siblings in it: on T3L at 2 ranks x 1 worker on one host, 16 siblings cost 6,000-8,500 steal
// requests per run (both ranks), 128 cost 1,700-1,900 and 512 550-640; with 512 the run took 3 %
// less time on one host and 10 % less across two TCP hosts than with 128, NS and MaxClique
// unchanged (bench/results/fine_grain.md). A larger local chunk gained nothing (a local steal is cheap).
inline constexpr std::size_t kLocalChunk = 8;
inline constexpr std::size_t kRemoteChunk = 512;

// What one split hands out, for a remote thief or for a worker of this rank.
constexpr std::size_t hungerChunk(bool remote) noexcept { return remote ? kRemoteChunk : kLocalChunk; }

}  // namespace jackdaw
