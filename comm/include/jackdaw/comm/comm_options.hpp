// The comm thread's timings and switches (comm_thread.hpp), read by the steal protocol
// (steal_protocol.hpp) that the comm thread and jackdaw-sim (sim/) both run. No MPI here. A field
// marked [transport] is read by the MPI transport only (the simulator models what it does);
// tests/comm/check_options_read.py checks that every other field is read by the protocol.
#pragma once

#include <chrono>
#include <cstdint>

#include "jackdaw/comm/board_scheme.hpp"
#include "jackdaw/comm/comm_events.hpp"

namespace jackdaw::comm {

struct CommOptions {
  int maxStealsInFlight = 1;    // outstanding steal requests of this rank
  // A victim gives half its spare tasks (at least one), shallowest first; false: one task per
  // steal. Half is faster: the thief comes back for work a third as often (NS at 2 ranks,
  // bench/results/engine_overhead.md).
  bool stealHalf = true;
  // Seeding (seed_tree.hpp): a rank's first request goes to its parent in a tree of this arity,
  // which holds it up to seedHoldMax until it has spare work. 0 = off: every rank steals by its
  // policy from the start.
  int seedArity = 0;
  std::chrono::microseconds seedHoldMax{5000};
  // A victim with nothing to give, whose busy worker splits for a refused thief (the hunger rule,
  // stack stealing), holds a steal request up to this long and answers it with that split, instead
  // of refusing it and letting the thief come back after its back-off and a second round trip.
  // 0 = refuse at once.
  std::chrono::microseconds stealHoldMax{500};
  // A refused seed request names the victim's own parent, and the thief asks there next
  // (seed_tree.hpp). false: a refusal ends the seed phase.
  bool seedRedirect = true;
  // Idle backoff: doubles from minSleep up to sleepCap() (below). victimMaxSleep: a thief may be
  // waiting for our answer and has no doorbell to ring. busyMaxSleep: with the doorbell and every
  // worker busy, nothing needs the comm thread before a thief rings or a worker runs dry (both
  // wake it), so it wakes only for its board, waves and heartbeat.
  std::chrono::microseconds minSleep{20}, maxSleep{1000}, victimMaxSleep{100}, busyMaxSleep{4000};
  std::chrono::microseconds publishInterval{500};                // board publish rate limit
  // Gap before this rank joins the next termination wave: short when it is idle, longer while
  // it is busy (no wave can end the search then, so frequent waves would only cost CPU).
  std::chrono::microseconds waveInterval{200}, busyWaveInterval{2000};  // [transport]
  std::chrono::microseconds latencyProbeInterval{20000};         // one timed read every …
  // Thief backoff after refusals: doubles from minSleep up to this. Short, because in a run's end
  // game, when a few ranks hold the last work and every other asks at random, a long cap leaves
  // the last tasks waiting for thieves that sleep (bench/results/sim_study_grid.md, "The end game";
  // the change of default in bench/results/defaults.md).
  std::chrono::microseconds stealRetryMax{100};
  // Requests arriving closer together than this form one burst (herding stats): about one steal
  // round trip on a shared-memory node (bench/results/comm.md).
  std::chrono::microseconds herdWindow{1000};
  // Watchdog: every comm thread beats on the board every heartbeatInterval; a rank that sees a
  // peer's beat unchanged for longer than watchdogSeconds aborts the job naming that peer (a rank
  // SIGSTOP'd, swapped out or cut off). The workers do not beat, so a long node expansion never
  // looks silent. 0 = off.
  std::chrono::milliseconds heartbeatInterval{100};  // [transport]
  double watchdogSeconds = 60;                       // [transport]
  // Ring the victim's doorbell (one MPI_Accumulate) with every steal request, so that its workers,
  // which poll the doorbell every doorbellNodes nodes (Session::pollDoorbell), wake its comm thread
  // at once instead of the request waiting out the comm thread's sleep.
  bool doorbell = true;
  // Every worker on this node has a core of its own (Session measures it, node_cores.hpp). If not,
  // a worker may be descheduled for a whole time slice, bell unpolled, and the comm thread must
  // look for requests on its own as well (nextSleep).
  bool ownCores = true;
  // A skeleton that splits for thieves reads the doorbell at its hunger check instead
  // (ParallelSearch::watchBell); another is pulsed every doorbellNodes nodes to poll it.
  unsigned doorbellNodes = 64;  // [transport] a worker polls the doorbell every this many nodes (one relaxed load)
  CommEvents* events = nullptr;  // told what happens (a timeline recorder), from the comm thread
};

// What the board's transport changes in these options (Session applies it; so does jackdaw-sim's
// --board-transport). The doorbell wakes a comm thread only where a thief writes it straight into
// the victim's memory (a one-sided window). On the message transport its ring is one more message,
// read at the victim's next comm turn, after the wake it was meant to cause; a busy victim trusting
// it slept busyMaxSleep while requests waited. So there it is off, and a victim holding tasks polls,
// climbing to maxSleep rather than victimMaxSleep: its polls take CPU from its workers on shared
// cores. Between two emulated TCP hosts, 2 ranks x 1 worker on 2 cores, search seconds (two runs
// each; bench/results/hosts.md): UTS T3L 2.99 with the bell trusted, 2.26-2.37 polling at 100 µs,
// 2.01-2.04 at 1 ms; T1L 1.92 / 2.14-2.15 / 1.95-1.98; NS genus 34 0.16 / 0.20 / 0.15-0.16.
inline CommOptions forTransport(CommOptions o, BoardTransport t) {
  if (t == BoardTransport::Messages) {
    o.doorbell = false;
    o.victimMaxSleep = o.maxSleep;
  }
  return o;
}

// Busy with the doorbell: thieves ring and no worker of the rank is idle, so nothing needs the comm
// thread before a worker wakes it (a thief's ring, a pool run dry, a bound, a stop).
inline bool busyWithDoorbell(const CommOptions& o, bool stealInFlight, int idleWorkers) {
  return !stealInFlight && o.doorbell && idleWorkers == 0;
}

// The longest a comm thread sleeps between two turns of its loop (its backoff doubles up to this):
// minSleep while its own steal is in flight, victimMaxSleep while it holds tasks and thieves do not
// ring, busyMaxSleep when busy with the doorbell, maxSleep otherwise.
inline std::chrono::microseconds sleepCap(const CommOptions& o, bool stealInFlight, bool holdsTasks, int idleWorkers) {
  if (stealInFlight) return o.minSleep;
  if (holdsTasks && !o.doorbell) return o.victimMaxSleep;
  if (busyWithDoorbell(o, stealInFlight, idleWorkers)) return o.busyMaxSleep;
  return o.maxSleep;
}

// The sleep after an idle turn, and the cap the backoff doubles up to from there. The backoff climbs
// from minSleep after an active turn, except that a rank busy with the doorbell sleeps its cap at
// once: each sleep costs its thread ~15 µs of CPU on our VMs (futex, timer, two context switches),
// most of it taken from a busy worker, and its workers wake it anyway. Not while its own sends are
// pending, which may need its progress (a large reply's rendezvous), nor on a node whose workers
// share cores, where a descheduled worker leaves the bell unpolled. (A hungry rank sleeping straight
// to its retry time was tried too: thieves waited longer for its refusals, and 4 oversubscribed
// ranks idled more; bench/results/distributed.md.) CommThread::run and jackdaw-sim's comm actor
// both sleep by it.
struct Sleep {
  std::chrono::microseconds now, cap;
};
inline Sleep nextSleep(const CommOptions& o, std::chrono::microseconds backoff, bool stealInFlight, bool holdsTasks,
                       int idleWorkers, bool sendsPending) {
  const auto cap = sleepCap(o, stealInFlight, holdsTasks, idleWorkers);
  if (busyWithDoorbell(o, stealInFlight, idleWorkers) && o.ownCores && !sendsPending) return {cap, cap};
  return {std::min(backoff, cap), cap};
}

}  // namespace jackdaw::comm
