// The simulated cluster of jackdaw-sim: hosts × cores × speed and the network between them, from a
// preset or flags, built as a SimGrid platform (a star: every host on its own link to one switch).
//
//   PlatformSpec p = preset("study");  p.hosts = 10;   // the original study's cluster, 10 nodes
//   buildPlatform(p);                                   // before any actor is created
#pragma once

#include <string>
#include <vector>

namespace jackdaw::sim {

struct PlatformSpec {
  std::string name = "custom";
  int hosts = 1;
  int cores = 2;                 // per host
  double coreSpeed = 1.0;        // a core's speed relative to the core the trace was recorded on
  double linkLatencyUs = 25.0;   // each host's link to the switch (a message between hosts crosses two)
  double linkGbps = 1.0;         // each host's link, each direction
  double loopbackLatencyUs = 1;  // between ranks (or a rank's threads) on one host
  double loopbackGbps = 100.0;
  std::vector<int> slowHosts;    // hosts whose cores run slowFactor times slower
  double slowFactor = 1.0;
  // Open MPI yields the core whenever its progress loop finds nothing to do, once a job has more
  // ranks on a host than the host has cores; a comm thread that yields to a busy worker runs again
  // only when the worker's time slice ends, and its next wake-up is late too. What one turn of its
  // loop loses that way when every core runs a worker (0: not modelled). Measured on its own by
  // bench/sim/wake_latency --yield (late + stretch), not fitted to validation runs.
  double yieldSliceUs = 0;
  // CPU a comm thread spends on each sleep and wake-up between its turns (futex, timer, context
  // switches), taken from the workers when they fill the host's cores. 0: not modelled. Measured
  // by bench/sim/wake_latency (its "CPU per cycle").
  double wakeCpuUs = 0;
  // How late a sleeping comm thread runs again after its timeout expires or a doorbell wakes it,
  // beyond the sleep itself (timer, scheduler): wall time, not CPU. A turn that starts with a yield
  // waits yieldSliceUs instead, which holds that turn's lateness. 0: not modelled. Measured by
  // bench/sim/wake_latency without --yield (its "late" at one spinning worker per core).
  double wakeLateUs = 0;
};

// "study": 20 × 16 cores at the recording core's speed, 1 Gb/s Ethernet (about 50 µs one way);
// "modern": 1,000 × 32, 100 Gb/s low-latency fabric (about 1.5 µs one way); "local": one host
// with the recording machine's 2 cores and its measured yield slice, wake-up CPU and wake-up
// lateness. Throws
// std::invalid_argument for another name.
PlatformSpec preset(const std::string& name);
std::vector<std::string> presetNames();

// Creates the SimGrid platform: hosts "host-0" … with their cores and speed (1e9 flop/s = the
// recording core), one split-duplex link per host, a loopback per host. Call once, on the Engine's
// thread, before creating actors.
void buildPlatform(const PlatformSpec& p);

}  // namespace jackdaw::sim
