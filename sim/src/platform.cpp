#include "jackdaw/sim/platform.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace jackdaw::sim {

PlatformSpec preset(const std::string& name) {
  PlatformSpec p;
  p.name = name;
  if (name == "study") {
    // Dual 8-core Xeon E5-2640 v2 at 2.0 GHz per node (the recording machines' clock too), on a
    // Beowulf cluster's Gigabit Ethernet: MPI over TCP there costs about 50 µs one way.
    p.hosts = 20, p.cores = 16, p.linkLatencyUs = 25, p.linkGbps = 1;
  } else if (name == "modern") {
    // 32-core nodes on a 100 Gb/s fabric with about 1.5 µs one-way MPI latency.
    p.hosts = 1000, p.cores = 32, p.linkLatencyUs = 0.75, p.linkGbps = 100;
  } else if (name == "local") {
    // This machine: one host, 2 cores; ranks talk through shared memory. With both cores busy a
    // comm turn that yields runs 1.84 ms late, a sleep and wake-up costs 16 µs of CPU, and a
    // wake-up comes 30 µs after it was due (bench/sim/wake_latency; the numbers and how they were
    // taken: bench/results/sim_validation.md).
    p.hosts = 1, p.cores = 2, p.yieldSliceUs = 1840, p.wakeCpuUs = 16, p.wakeLateUs = 30;
  } else {
    throw std::invalid_argument("unknown platform preset '" + name + "' (study, modern, local)");
  }
  return p;
}

std::vector<std::string> presetNames() { return {"study", "modern", "local"}; }

void buildPlatform(const PlatformSpec& p) {
  auto* zone = sg4::create_star_zone("cluster");
  for (int h = 0; h < p.hosts; ++h) {
    const bool slow = std::find(p.slowHosts.begin(), p.slowHosts.end(), h) != p.slowHosts.end();
    const double speed = 1e9 * p.coreSpeed / (slow ? p.slowFactor : 1.0);
    const std::string name = "host-" + std::to_string(h);
    sg4::Host* host = zone->create_host(name, speed)->set_core_count(p.cores)->seal();
    sg4::Link* link = zone->create_split_duplex_link(name + "-link", p.linkGbps * 1e9 / 8)
                          ->set_latency(p.linkLatencyUs * 1e-6)
                          ->seal();
    sg4::Link* loop = zone->create_link(name + "-loop", p.loopbackGbps * 1e9 / 8)
                          ->set_latency(p.loopbackLatencyUs * 1e-6)
                          ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
                          ->seal();
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr,
                    {sg4::LinkInRoute(link, sg4::LinkInRoute::Direction::UP)}, true);
    zone->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(loop)}, false);
  }
  zone->seal();
}

}  // namespace jackdaw::sim
