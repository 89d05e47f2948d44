// A simulated job set up on the engine (start), and its JSON report once the engine has run.
#pragma once

#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "comm_actor.hpp"
#include "job.hpp"

namespace jackdaw::sim::detail {

struct Running {
  std::unique_ptr<Job> job;
  std::vector<std::unique_ptr<CommActor>> comms;
};

// Creates the job's ranks, trees and actors on the engine's hosts (run them with engine.run()).
Running start(const SimConfig& cfg, const trace::Trace& t, HostLoad& load);
// The job's outcome in the apps' --stats shape, with the simulation's own section.
nlohmann::json report(Running& run);

}  // namespace jackdaw::sim::detail
