// The policy registry, and the one place the built-in policies are listed (one line each).
#include <stdexcept>

#include "jackdaw/comm/policies/performance.hpp"
#include "jackdaw/comm/policies/proportional.hpp"
#include "jackdaw/comm/policies/random.hpp"
#include "jackdaw/comm/policies/two_choice.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::comm {

PolicyRegistry PolicyRegistry::builtin() {
  PolicyRegistry r;
  r.add<RandomPolicy>();
  r.add<PerformancePolicy>();
  r.add<ProportionalPolicy>();
  r.add<TwoChoicePolicy>();
  return r;
}

PolicyRegistry& PolicyRegistry::add(PolicySpec spec) {
  for (const auto& s : specs_)
    if (s.name == spec.name) throw std::invalid_argument("victim policy '" + spec.name + "' is registered twice");
  // A flag two policies share (the score constants) must mean the same thing in both.
  for (const auto& p : spec.params)
    for (const auto& q : params())
      if (p.flag == q.flag && (p.defaultValue != q.defaultValue || p.lo != q.lo || p.hi != q.hi))
        throw std::invalid_argument("policy '" + spec.name + "' declares " + p.flag +
                                    " differently from an earlier policy");
  specs_.push_back(std::move(spec));
  return *this;
}

const PolicySpec& PolicyRegistry::find(const std::string& name) const {
  for (const auto& s : specs_)
    if (s.name == name) return s;
  std::string known;
  for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown victim policy '" + name + "' (known: " + known + ")");
}

std::unique_ptr<VictimPolicy> PolicyRegistry::make(const std::string& name, const PolicyEnv& env,
                                                   const ParamValues& values) const {
  return find(name).make(env, values);
}

std::vector<std::string> PolicyRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& s : specs_) out.push_back(s.name);
  return out;
}

std::vector<PolicyParam> PolicyRegistry::params() const {
  std::vector<PolicyParam> out;
  for (const auto& s : specs_)
    for (const auto& p : s.params) {
      bool seen = false;
      for (const auto& q : out) seen |= q.flag == p.flag;
      if (!seen) out.push_back(p);
    }
  return out;
}

}  // namespace jackdaw::comm
