#include "jackdaw/uts/presets.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <utility>

#include "jackdaw/core/errors.hpp"

namespace jackdaw::uts {

namespace {

TreeParams geo(Shape a, int d, double b, int r) {
  TreeParams t;
  t.type = TreeType::Geometric;
  t.shape = a;
  t.genMx = d;
  t.b0 = b;
  t.seed = r;
  return t;
}

TreeParams bin(double b, double q, int m, int r) {
  TreeParams t;
  t.type = TreeType::Binomial;
  t.b0 = b;
  t.q = q;
  t.m = m;
  t.seed = r;
  return t;
}

const std::vector<std::pair<std::string, TreeParams>>& table() {
  static const std::vector<std::pair<std::string, TreeParams>> t = [] {
    TreeParams t4 = geo(Shape::Linear, 16, 6, 1);
    t4.type = TreeType::Hybrid;
    t4.q = 0.234375;
    t4.m = 4;
    return std::vector<std::pair<std::string, TreeParams>>{
        {"default", TreeParams{}},
        {"T1", geo(Shape::Fixed, 10, 4, 19)},
        {"T5", geo(Shape::Linear, 20, 4, 34)},
        {"T2", geo(Shape::Cyclic, 16, 6, 502)},
        {"T3", bin(2000, 0.124875, 8, 42)},
        {"T4", t4},
        {"T1L", geo(Shape::Fixed, 13, 4, 29)},
        {"T2L", geo(Shape::Cyclic, 23, 7, 220)},
        {"T3L", bin(2000, 0.200014, 5, 7)},
        {"T1XL", geo(Shape::Fixed, 15, 4, 29)},
        {"T1XXL", geo(Shape::Fixed, 15, 4, 19)},
        {"T3XXL", bin(2000, 0.499995, 2, 316)},
        {"T2XXL", bin(2000, 0.499999995, 2, 0)},
        {"T1WL", geo(Shape::Fixed, 18, 4, 19)},
        {"T2WL", bin(2000, 0.4999999995, 2, 559)},
        {"T3WL", bin(2000, 0.4999995, 2, 559)},
    };
  }();
  return t;
}

const char* shapeName(Shape s) {
  switch (s) {
    case Shape::Linear: return "linear";
    case Shape::ExpDec: return "expdec";
    case Shape::Cyclic: return "cyclic";
    case Shape::Fixed: return "fixed";
  }
  return "?";
}

std::string num(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

// The expected size, and when it is infinite, why (in terms of the flags).
struct Expectation {
  double nodes = 0;
  std::string infinite;  // empty when finite
  bool mayEnd = false;   // infinite in expectation, yet a tree may still die out (a binomial part with q < 1)
};

constexpr double kTooMany = 9.3e18;      // past 2^63: no need to sum further
constexpr long long kMaxLevels = 10'000'000;  // a geometric tree still growing here never settles

// Mean child count of a geometric node at `height`, capped at kMaxNumChildren: for the number of
// failures X before a success of probability p = 1 / (1 + mean), E[min(X, c)] = mean * (1 - (1 - p)^c).
double cappedGeometricMean(const TreeParams& t, int height) {
  const double m = geometricMean(t, height);
  if (!(m > 0)) return m == 0 || m < 0 ? 0.0 : m;  // NaN stays NaN
  if (std::isinf(m)) return m;
  return m * (1.0 - std::pow(m / (1.0 + m), kMaxNumChildren));
}

Expectation expectation(const TreeParams& t) {
  const int m = std::min(t.m, kMaxNumChildren);
  const double qm = t.q * m;
  const std::string flags = "(--uts-q " + num(t.q) + ", --uts-m " + std::to_string(t.m) +
                            (t.m > kMaxNumChildren ? ", capped at " + std::to_string(kMaxNumChildren) : "") + ")";
  // Expected size of a binomial node's subtree, itself included. With q * m >= 1 it is infinite,
  // yet unless q = 1 (every node has m >= 1 children) each subtree still dies out with some chance.
  auto binomialSubtree = [&](double nodes) -> Expectation {
    if (nodes == 0) return {0, "", false};
    if (t.q >= 1 && m >= 1)
      return {HUGE_VAL, "every binomial node has " + std::to_string(m) + " children " + flags + ": the tree is certainly infinite", false};
    if (qm >= 1)
      return {HUGE_VAL, "binomial nodes have q * m = " + num(qm) + " children on average " + flags +
                            ": the tree's expected size is infinite", true};
    return {nodes / (1.0 - qm), "", false};
  };
  switch (t.type) {
    case TreeType::Balanced: {
      const double b = std::floor(t.b0);
      double total = 0, level = 1;
      for (int d = 0; d <= t.genMx && total < kTooMany; ++d, level *= b) total += level;
      return {total, "", false};
    }
    case TreeType::Binomial: {
      const Expectation below = binomialSubtree(std::floor(t.b0));
      return {1 + below.nodes, below.infinite, below.mayEnd};
    }
    case TreeType::Geometric:
    case TreeType::Hybrid: {
      double total = 0, level = 1;
      for (long long h = 0;; ++h) {
        const int height = static_cast<int>(std::min<long long>(h, INT32_MAX));
        if (t.type == TreeType::Hybrid && !(height < t.shiftDepth * t.genMx)) {
          const Expectation below = binomialSubtree(level);
          return {total + below.nodes, below.infinite, below.mayEnd};
        }
        total += level;
        const double mean = cappedGeometricMean(t, height);
        if (!std::isfinite(mean))
          return {HUGE_VAL, "the geometric mean child count at depth " + std::to_string(h) +
                                " is not a finite number (shape expdec needs --uts-d >= 2)", false};
        level *= mean;
        if (level == 0 || total >= kTooMany) return {total, "", false};
        // Past gen_mx only expdec goes on, with a falling mean below 1: the rest is at most a
        // geometric series.
        if (h >= t.genMx && mean < 1 && level / (1 - mean) < 1e-9 * total) return {total + level / (1 - mean), "", false};
        if (h >= kMaxLevels)
          return {HUGE_VAL, "the expected size still grows " + std::to_string(kMaxLevels) +
                                " levels down (the mean child count stays at or above 1; shape expdec needs --uts-b > 1)", false};
      }
    }
  }
  return {0, "", false};
}

// The chance that a binomial tree dies out: each root child's subtree ends with the smallest root
// e of e = (1 - q) + q e^m (Newton's method from 0 climbs to it), and the root has floor(b0) children.
double binomialEndsChance(const TreeParams& t) {
  const int m = std::min(t.m, kMaxNumChildren);
  double e = 0;
  for (int i = 0; i < 200; ++i) {
    const double g = (1 - t.q) + t.q * std::pow(e, m) - e, slope = t.q * m * std::pow(e, m - 1) - 1;
    if (!(slope < 0)) break;
    const double next = e - g / slope;
    if (!(next > e)) break;
    e = std::min(next, 1.0);
  }
  return std::pow(e, std::floor(t.b0));
}

}  // namespace

double expectedNodes(const TreeParams& t) { return expectation(t).nodes; }

bool isPreset(const TreeParams& t) {
  for (const auto& [name, p] : table())
    if (p.type == t.type && p.shape == t.shape && p.genMx == t.genMx && p.b0 == t.b0 && p.seed == t.seed &&
        p.q == t.q && p.m == t.m && p.shiftDepth == t.shiftDepth)
      return true;
  return false;
}

std::string checkCountable(const TreeParams& t) {
  // A sample tree is one known realisation: UTS 2.1 published its size (T3L's q * m is 1.00007, so
  // its expected size is infinite, yet the tree of its seed is finite).
  if (isPreset(t)) return "";
  const Expectation e = expectation(t);
  if (!e.infinite.empty() && !e.mayEnd) throw InputError("tree " + describe(t) + ": " + e.infinite);
  if (!e.infinite.empty()) {
    std::string chance;
    if (t.type == TreeType::Binomial) {
      std::ostringstream p;
      p << std::setprecision(2) << 100 * binomialEndsChance(t);
      chance = " (for these parameters, about " + p.str() + " % of seeds' trees are)";
    }
    return "tree " + describe(t) + ": " + e.infinite + ", yet one seed's tree may still be finite" + chance +
           ": it is counted, and if it turns out infinite the run stops with an error";
  }
  if (e.nodes >= kTooMany)
    throw InputError("tree " + describe(t) + ": its expected size is more than 2^63 nodes (" + num(e.nodes) +
                     " in its first levels): no run could finish or count it");
  return "";
}

std::optional<TreeParams> preset(const std::string& name) {
  for (const auto& [n, t] : table())
    if (n == name) return t;
  return std::nullopt;
}

std::vector<std::string> presetNames() {
  std::vector<std::string> names;
  for (const auto& e : table()) names.push_back(e.first);
  return names;
}

std::string describe(const TreeParams& t) {
  std::ostringstream o;
  switch (t.type) {
    case TreeType::Binomial: o << "Binomial b0=" << t.b0 << " q=" << t.q << " m=" << t.m; break;
    case TreeType::Geometric: o << "Geometric[" << shapeName(t.shape) << "] d=" << t.genMx << " b0=" << t.b0; break;
    case TreeType::Hybrid:
      o << "Hybrid[" << shapeName(t.shape) << "] d=" << t.genMx << " b0=" << t.b0 << " q=" << t.q << " m=" << t.m
        << " f=" << t.shiftDepth;
      break;
    case TreeType::Balanced: o << "Balanced d=" << t.genMx << " b0=" << t.b0; break;
  }
  o << " r=" << t.seed;
  return o.str();
}

}  // namespace jackdaw::uts
