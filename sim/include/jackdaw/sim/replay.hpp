// Replaying a recorded search (a trace, jackdaw/trace/trace.hpp) on a simulated cluster.
//
// Each rank has W worker actors taking tasks from the rank's pool (the deepest first; a thief gets
// the shallowest) and a comm actor that runs Jackdaw's steal protocol: one steal in flight, a
// victim refuses when it has nothing beyond what its own idle workers will take, refusals back
// off, the board is published on change at the real rate and in the real scheme's message
// pattern. The victim policy is the project's own object (comm/policies/), built by the same
// registry, reading a board view this simulator fills, with simulated time. A task runs for its
// recorded CPU time (scaled by the host's speed) and releases each child at its recorded spawn
// point. A branch-and-bound trace with levels is replayed with its incumbent: a task runs as
// recorded under the best bound its rank knows, switches to the stronger tree when a better bound
// is found or arrives, and bounds travel between ranks as the runtime sends them (published on
// the board at the comm actor's next turn, read at the receiver's). With splitOnHunger the
// recorded children go to their worker's private stack instead and reach the pool only when the
// rank is hungry (the engine's hunger splitting; private_stacks.hpp). docs/simulation.md says what
// is modelled and what is not.
//
//   jackdaw::sim::SimConfig c;  c.ranks = 20;  c.workers = 15;  c.steal.policy = "performance";
//   nlohmann::json out = jackdaw::sim::simulate(c, trace);   // before: buildPlatform(...)
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>
#include <simgrid/forward.h>

#include "jackdaw/comm/comm_options.hpp"
#include "jackdaw/comm/policy.hpp"
#include "jackdaw/comm/steal_options.hpp"
#include "jackdaw/sim/platform.hpp"
#include "jackdaw/trace/trace.hpp"

namespace jackdaw::sim {

struct SimConfig {
  PlatformSpec platform;
  int ranks = 1;                     // placed round-robin over the hosts
  int workers = 1;                   // worker actors per rank
  comm::StealOptions steal;          // the policy, its constants, --seed and the board, as the apps take them
  const comm::PolicyRegistry* policies = nullptr;  // null: PolicyRegistry::builtin()
  comm::CommOptions comm{};          // the comm thread's timings, the runtime's defaults
  double commCostUs = 2.0;           // a comm actor's CPU per message it handles
  // The board travels as messages through the comm actors (the runtime's transport between TCP-only
  // hosts, --board-transport messages): comm::forTransport's options (no doorbell), and each
  // record a peer publishes costs this rank's comm actor commCostUs at its next turn. false: the
  // board is a one-sided window.
  bool boardMessages = false;
  // Each task's CPU time times exp(sigma * N(0,1) - sigma^2 / 2), drawn from a stream per rank
  // seeded by `seed` (mean 1): the run-to-run noise of a real machine. 0: the trace's times.
  double taskJitter = 0.0;
  // Every recorded task's CPU times this factor, and nothing else (the comm actor's costs stay as
  // given): a fine recording (budget -b 100) carries the tracer's and the splits' per-task cost,
  // which a run that splits on hunger does not pay; scale = the real one-worker time / the trace's
  // task CPU takes it out (bench/hosts/run.py). --core-speed instead speeds up the whole core.
  double taskCpuScale = 1.0;
  // As the apps' --slow-ranks (app/slow_rank.hpp): these ranks' workers follow every task with
  // (slowRankFactor - 1) x its time of busy work on their core; the cores, the comm actor and the
  // children's releases keep full speed (--slow-hosts instead slows a host's cores, all of it).
  std::vector<int> slowRanks;
  double slowRankFactor = 1.0;
  std::string label = "job";         // names this job's actors and mailboxes (a co-running job differs)
  bool replayIncumbent = true;       // false: every rank knows the trace's initial bound from the start
  // Hunger splitting (docs/simulation.md): children go to their worker's private stack and reach
  // the rank's pool only when the rank is hungry; false replays the recorded tree as it is.
  bool splitOnHunger = false;
  double splitCheckNodes = 1;        // a busy worker checks for hunger every this many nodes
  double splitCostNs = 500;          // CPU a split costs the worker that splits, per task it makes
  // What one split hands over: the oldest entry (One), the whole shallowest level (Level, as
  // stack_stealing --chunked), or the engine's rule (Rule: up to hungerChunk(remote) entries, oldest
  // first, level after level, as depth_bounded and budget split; core/hunger_rule.hpp).
  enum class SplitChunk { One, Level, Rule };
  SplitChunk splitChunk = SplitChunk::Rule;
  bool splitDirect = false;          // a refused thief's split goes into its answer (a what-if), not the pool
};

// What one simulated job did: the fields of an app's --stats that `campaign.py report` reads
// ("seconds", "complete", "stats", "distributed": per rank, totals, herding, board), plus
// "simulation" (model, platform, counts for checking). Call with the platform built; runs the
// SimGrid engine to the end of every job started. `corun` (may be null) runs a second job on the
// same hosts at the same time, contending for cores and links (the study's "simultaneous" mode).
struct SimOutcome {
  nlohmann::json job;
  nlohmann::json corun;  // null when there was none
};
SimOutcome simulate(simgrid::s4u::Engine& engine, const SimConfig& cfg, const trace::Trace& trace,
                    const SimConfig* corunCfg = nullptr, const trace::Trace* corunTrace = nullptr);

// About the most memory (bytes) buildPlatform and simulate will take for this job (and `corun`'s,
// on the same hosts), on the high side, so that a run too big for the machine is refused before
// anything is allocated. Counts the process, hosts, actors, pairs of ranks and tasks; replay.cpp
// says with what weights and how they were measured.
std::uint64_t memoryEstimate(const SimConfig& cfg, const trace::Trace& trace, const SimConfig* corunCfg = nullptr,
                             const trace::Trace* corunTrace = nullptr);

}  // namespace jackdaw::sim
