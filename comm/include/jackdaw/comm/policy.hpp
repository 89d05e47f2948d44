// Victim policies: "which rank should this rank steal from now?"
//
// A policy is one class in one header: its name, a one-line summary, its constants (a Params
// struct whose visit() lists each constant once, with its flag, help and range), and the few
// calls below. One line registers it: registry.add<MyPolicy>(). --policy NAME, its flags and its
// --stats counters then appear everywhere without touching another file (docs/architecture.md).
//
//   struct Nearest final : jackdaw::comm::VictimPolicy {
//     static constexpr const char* name = "nearest";
//     static constexpr const char* summary = "always the next rank up";
//     struct Params { double step = 1;
//       template <class F> void visit(F&& f) { f("--nearest-step", step, "ranks to skip", 1.0, 1e6); } };
//     Nearest(const PolicyEnv& e, const Params& p) : e_(e), p_(p) {}
//     int choose() override { return (e_.rank + static_cast<int>(p_.step)) % e_.size; }
//     PolicyEnv e_;  Params p_;
//   };
//   auto reg = PolicyRegistry::builtin();  reg.add<Nearest>();
//
// The comm thread is a policy's only caller, so a policy needs no locking. It reads the load board
// through the BoardView in its PolicyEnv (lock-free local loads, no MPI call).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/comm/policies/board_view.hpp"

namespace jackdaw::comm {

// The constants given on the command line, by flag ("--perf-alpha" → 0.65). A flag that is
// absent keeps the policy's default.
using ParamValues = std::map<std::string, double>;

// One tunable constant as the command line shows it (booleans are 0 / 1).
struct PolicyParam {
  std::string flag;
  double defaultValue = 0.0;
  std::string help;
  double lo = 0.0;  // accepted range, checked where the flag is parsed
  double hi = 1e12;
};

// What a policy is built with.
struct PolicyEnv {
  int rank = 0;
  int size = 1;
  int workers = 1;                  // worker threads on this rank
  std::uint64_t seed = 1;           // --seed; policies seed their RNG with seed ^ rank
  BoardView* board = nullptr;       // the ranks' published load (candidates, reads; comm thread)
};

struct StealOutcome {
  int victim = -1;
  bool gotWork = false;
  std::uint32_t tasks = 0;
  double roundTripUs = 0.0;
};

class VictimPolicy {
 public:
  static constexpr std::int64_t kOwnBackoff = -1;                            // see onOutcome
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();  // see refresh

  virtual ~VictimPolicy() = default;
  // A remote rank to ask for work, or -1 if there is none.
  virtual int choose() = 0;
  // How the last steal ended. Returns when to ask next after a refusal: >= 0 wait exactly that
  // many µs (0 = at once), kOwnBackoff = the comm thread's own growing back-off.
  virtual std::int64_t onOutcome(const StealOutcome&) { return kOwnBackoff; }
  // A delay sample to `peer` in µs: a timed one-sided read of its board record ((3.2)'s sample).
  virtual void onDelaySample(int /*peer*/, double /*us*/) {}
  // A steal round trip to `peer` in µs (request to answer; mostly the victim's wake-up time).
  virtual void onRoundTrip(int /*peer*/, double /*us*/) {}
  // This rank has just started needing work (a new hunger episode): per-episode state restarts.
  virtual void onHungry() {}
  // Optional periodic work: the comm thread calls it once at start-up (nowNs of the first loop)
  // and then whenever the time it returned has come. Returns the next time (steady clock, ns).
  virtual std::uint64_t refresh(std::uint64_t /*nowNs*/) { return kNever; }
  // Counters for --stats, read after the search (integers add up over ranks in the report).
  virtual nlohmann::json stats() const { return nlohmann::json::object(); }
};

// A policy as the registry knows it.
struct PolicySpec {
  std::string name;
  std::string summary;
  std::vector<PolicyParam> params;
  std::function<std::unique_ptr<VictimPolicy>(const PolicyEnv&, const ParamValues&)> make;
};

namespace detail {
template <class P>
std::vector<PolicyParam> rowsOf() {
  std::vector<PolicyParam> rows;
  P defaults{};
  defaults.visit([&](const char* flag, auto& field, const char* help, double lo, double hi) {
    rows.push_back({flag, static_cast<double>(field), help, lo, hi});
  });
  return rows;
}
template <class P>
P fromValues(const ParamValues& v) {
  P p{};
  p.visit([&](const char* flag, auto& field, const char*, double, double) {
    if (auto it = v.find(flag); it != v.end()) {
      if constexpr (std::is_same_v<std::remove_reference_t<decltype(field)>, bool>) field = it->second != 0.0;
      else field = static_cast<std::remove_reference_t<decltype(field)>>(it->second);
    }
  });
  return p;
}
}  // namespace detail

// The policies a program offers. An object, passed to whoever needs it (no global table);
// builtin() holds the four of comm/policies/: random, performance, proportional and twochoice
// (registered in policy_registry.cpp).
class PolicyRegistry {
 public:
  static PolicyRegistry builtin();

  // Registers policy class P (see the usage note at the top). Throws std::invalid_argument for a
  // name already taken or a flag another policy declares with a different default.
  template <class P>
  PolicyRegistry& add() {
    PolicySpec s;
    s.name = P::name;
    s.summary = P::summary;
    if constexpr (requires { typename P::Params; }) {
      s.params = detail::rowsOf<typename P::Params>();
      s.make = [](const PolicyEnv& e, const ParamValues& v) -> std::unique_ptr<VictimPolicy> {
        return std::make_unique<P>(e, detail::fromValues<typename P::Params>(v));
      };
    } else {
      s.make = [](const PolicyEnv& e, const ParamValues&) -> std::unique_ptr<VictimPolicy> {
        return std::make_unique<P>(e);
      };
    }
    return add(std::move(s));
  }
  PolicyRegistry& add(PolicySpec spec);

  // Throws std::invalid_argument naming the known policies when `name` is unknown.
  const PolicySpec& find(const std::string& name) const;
  std::unique_ptr<VictimPolicy> make(const std::string& name, const PolicyEnv& env, const ParamValues& values = {}) const;
  std::vector<std::string> names() const;
  // Every policy's constants, each flag once (policies may share a constant, e.g. (3.2)'s alpha).
  std::vector<PolicyParam> params() const;
  const std::vector<PolicySpec>& specs() const { return specs_; }

 private:
  std::vector<PolicySpec> specs_;
};

}  // namespace jackdaw::comm
