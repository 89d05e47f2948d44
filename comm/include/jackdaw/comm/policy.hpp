// Victim policies: "which rank should this rank steal from now?"
//
// A policy reads the local load board (lock-free) and per-peer delays, hears the outcome of each
// steal, and may refresh its view periodically. The comm thread is its only caller for
// choose/onOutcome/onDelaySample/refresh, so a policy needs no locking unless it runs its own
// refresh thread. New policy = one file in policies/ + one line in src/policy_registry.cpp.
//
//   auto p = makePolicy("random", PolicyContext{.rank = r, .size = n, .seed = seed, .board = &b});
//   int victim = p->choose();   // -1: nobody to ask (one rank)
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/comm/policies/params.hpp"

namespace jackdaw::comm {

class LoadBoard;
class PeerDelays;
class BoardView;

struct PolicyContext {
  int rank = 0;
  int size = 1;
  std::uint64_t seed = 1;          // --seed; policies seed their RNG with seed ^ rank
  int workers = 1;                 // worker threads on this rank (POLICY.md 3.2 uses it)
  const LoadBoard* board = nullptr;
  const PeerDelays* delays = nullptr;
  // Appended after the positional fields above (callers brace-initialise those in order).
  const BoardView* view = nullptr;  // read-only board for policies; null = adapt `board`
  PerformanceParams performance{};  // policies/params.hpp; flags in policyParamTable()
  ProportionalParams proportional{};
};

struct StealOutcome {
  int victim = -1;
  bool gotWork = false;
  std::uint32_t tasks = 0;
  double roundTripUs = 0.0;
};

class VictimPolicy {
 public:
  virtual ~VictimPolicy() = default;
  virtual const char* name() const = 0;
  // A remote rank to ask for work, or -1 if there is none.
  virtual int choose() = 0;
  virtual void onOutcome(const StealOutcome&) {}
  virtual void onDelaySample(int /*peer*/, double /*us*/) {}
  // Called by the comm thread whenever refreshDue() says so (a policy may instead run its own
  // refresh thread and leave these as no-ops).
  virtual bool refreshDue(std::uint64_t /*nowNs*/) const { return false; }
  virtual void refresh(std::uint64_t /*nowNs*/) {}
  // Read by the comm thread right after onOutcome() of a refused steal: >= 0 = wait exactly this
  // many µs before the next steal (0 = retry at once), -1 = use the comm thread's own refusal
  // back-off. Lets a policy implement "refresh, retry once, then back off" (performance).
  virtual std::int64_t retryDelayUs() const { return -1; }
  // Per-policy counters for --stats (policy_support.hpp lists the keys); read after the search.
  virtual nlohmann::json stats() const { return {{"policy", name()}}; }
};

using PolicyFactory = std::function<std::unique_ptr<VictimPolicy>(const PolicyContext&)>;

// Throws std::invalid_argument naming the known policies when `name` is unknown.
std::unique_ptr<VictimPolicy> makePolicy(const std::string& name, const PolicyContext& ctx);
std::vector<std::string> policyNames();

}  // namespace jackdaw::comm
