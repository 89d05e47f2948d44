#include "jackdaw/uts/presets.hpp"

#include <sstream>
#include <utility>

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

}  // namespace

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
