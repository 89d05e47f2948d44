// Simulated time as the replay reads it, and CPU work on the simulated cores.
#pragma once

#include <cmath>
#include <cstdint>

#include <simgrid/s4u.hpp>

namespace jackdaw::sim::detail {

namespace sg4 = simgrid::s4u;

inline double nowS() { return sg4::Engine::get_clock(); }
inline std::uint64_t nowNs() { return static_cast<std::uint64_t>(std::llround(nowS() * 1e9)); }
inline double nowUs() { return nowS() * 1e6; }

inline void execNs(double ns) {
  if (ns >= 1.0) sg4::this_actor::execute(ns);  // 1 flop = 1 ns on the recording core
}

}  // namespace jackdaw::sim::detail
