// Unbalanced Tree Search (UTS 2.1) as a Jackdaw enumeration model.
//
//   jackdaw::uts::Tree t(*jackdaw::uts::preset("T1"));     // or from TreeParams you fill yourself
//   auto r = jackdaw::seq::search<jackdaw::uts::Model, jackdaw::Enumeration<jackdaw::uts::Counts>>(
//       t, jackdaw::uts::makeRoot(t), {});
//   r.enumerator.get().nodes / .leaves / .maxDepth
//
// A tree is defined by its parameters alone (no input file). Each node carries its SHA-1 state
// (rng.hpp); its child count is a function of that state and its height, by the rules of the
// tree type below. The child count is computed when the node is created, so the enumerator can
// tell leaves without building a generator.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "jackdaw/core/stats.hpp"
#include "jackdaw/uts/rng.hpp"

namespace jackdaw::uts {

// Numbering as the original UTS (uts.h), not YewPar's.
enum class TreeType : int { Binomial = 0, Geometric = 1, Hybrid = 2, Balanced = 3 };
enum class Shape : int { Linear = 0, ExpDec = 1, Cyclic = 2, Fixed = 3 };

// Defaults are those of uts.c when a flag is absent.
struct TreeParams {
  TreeType type = TreeType::Geometric;  // -t
  Shape shape = Shape::Linear;          // -a (geometric trees)
  int genMx = 6;                        // -d: geometric / balanced depth
  double b0 = 4.0;                      // -b: root branching factor (expected, for geometric)
  std::int32_t seed = 0;                // -r
  double q = 15.0 / 64.0;               // -q: binomial probability of a non-leaf
  int m = 4;                            // -m: binomial children of a non-leaf
  double shiftDepth = 0.5;              // -f: hybrid switches geometric -> binomial at f * genMx
};

inline constexpr int kMaxNumChildren = 100;  // UTS cap (a binomial root is exempt)

struct Node {
  State state;
  std::int32_t height = 0;
  std::int32_t numChildren = 0;
};

// Expected branching factor of a geometric node at `depth` (UTS shape functions).
inline double geometricMean(const TreeParams& t, int depth) {
  if (depth == 0) return t.b0;
  const double d = depth, g = t.genMx;
  switch (t.shape) {
    case Shape::ExpDec: return t.b0 * std::pow(d, -std::log(t.b0) / std::log(g));
    case Shape::Cyclic: return depth > 5 * t.genMx ? 0.0 : std::pow(t.b0, std::sin(2.0 * 3.141592653589793 * d / g));
    case Shape::Fixed: return depth < t.genMx ? t.b0 : 0.0;
    case Shape::Linear: break;
  }
  return t.b0 * (1.0 - d / g);
}

// A tree: its parameters plus log(1 - p) of the geometric distribution per height, computed
// once (a log and the shape function per node were a fifth of the run time). The cached value is
// the very double UTS computes, so child counts are bit-identical.
struct Tree {
  TreeParams params;
  std::vector<double> logOneMinusP;  // by height; heights past the end are computed on the spot
  // A node deeper than this that has children ends the search with TooDeep: each level costs every
  // worker's depth-first stack memory, so an infinite tree (supercritical, and this seed's did not
  // die out) would otherwise grow until memory runs out. The app sets it from --memory-limit.
  int maxHeight = std::numeric_limits<int>::max();

  Tree() : Tree(TreeParams{}) {}
  explicit Tree(const TreeParams& t) : params(t) {
    const int h = t.type == TreeType::Balanced ? 0 : std::clamp(5 * t.genMx + 2, 1, 4096);
    for (int d = 0; d < h; ++d) logOneMinusP.push_back(logOneMinusPAt(d));
  }
  double logOneMinusPAt(int height) const {
    const double p = 1.0 / (1.0 + geometricMean(params, height));
    return std::log(1.0 - p);
  }
};

// Geometric distribution with the shape's mean: inverse CDF at a uniform u.
inline int geometricChildren(const Tree& t, const State& s, int height) {
  const double lq = static_cast<std::size_t>(height) < t.logOneMinusP.size() ? t.logOneMinusP[height]
                                                                              : t.logOneMinusPAt(height);
  const double u = toProb(rand31(s));
  const double c = std::floor(std::log(1.0 - u) / lq);
  // Capped here, before the conversion: a huge mean draws counts beyond int (numChildrenOf caps
  // them at kMaxNumChildren anyway). Not-a-number (refused parameters only) takes the cap too.
  if (!(c < kMaxNumChildren)) return kMaxNumChildren;
  return c > 0 ? static_cast<int>(c) : 0;
}

inline int binomialChildren(const TreeParams& t, const State& s) {
  return toProb(rand31(s)) < t.q ? t.m : 0;
}

// Children of the node with this state and height (uts_numChildren).
inline int numChildrenOf(const Tree& tree, const State& s, int height) {
  const TreeParams& t = tree.params;
  int n = 0;
  switch (t.type) {
    case TreeType::Binomial:
      n = height == 0 ? static_cast<int>(std::floor(t.b0)) : binomialChildren(t, s);
      break;
    case TreeType::Geometric: n = geometricChildren(tree, s, height); break;
    case TreeType::Hybrid:
      n = height < t.shiftDepth * t.genMx ? geometricChildren(tree, s, height) : binomialChildren(t, s);
      break;
    case TreeType::Balanced: n = height < t.genMx ? static_cast<int>(t.b0) : 0; break;
  }
  if (height == 0 && t.type == TreeType::Binomial) return std::min(n, static_cast<int>(std::ceil(t.b0)));
  if (t.type != TreeType::Balanced) return std::min(n, kMaxNumChildren);
  return n;
}

// Memory one level of depth may cost a worker: its depth-first frame and the siblings it may hand
// out as tasks. An upper estimate: an infinite tree (q * m = 2) stopped at 1,048,576 levels on one
// worker had a peak RSS of 100 MB, about 100 bytes a level.
inline constexpr std::uint64_t kBytesPerLevel = 1024;

struct TooDeep : std::runtime_error {
  explicit TooDeep(int height)
      : std::runtime_error("the tree goes deeper than " + std::to_string(height) +
                           " levels, as deep as --memory-limit lets every worker's depth-first stack grow: it is "
                           "probably infinite (its expected size is), so it cannot be counted") {}
};

inline Node makeNode(const Tree& t, const State& s, int height) {
  return Node{s, height, numChildrenOf(t, s, height)};
}

inline Node makeRoot(const Tree& t) { return makeNode(t, rootState(t.params.seed), 0); }

struct Model {
  using Space = Tree;
  using Node = uts::Node;
  // always_inline: GCC 12 inlines these into seq's recursion but kept them out of line in the
  // parallel skeletons' larger task loop (a call per node; bench/results/engine_overhead.md).
  struct Generator {
    [[gnu::always_inline]] Generator(const Space& s, const Node& p)
        : space(s), parent(p), numChildren(p.numChildren) {
      if (numChildren > 0 && p.height >= s.maxHeight) throw TooDeep(s.maxHeight);
    }
    const Space& space;
    const Node& parent;
    int numChildren;
    int i = 0;
    // The states of the next kAhead children, hashed together when the first of them is asked
    // for: siblings' hashes do not depend on each other, so the CPU overlaps them, where one at a
    // time each waits for the last (a tree path is a chain of hashes).
    static constexpr int kAhead = 4;
    int ready = 0;  // children [i, ready) have their state in ahead[child % kAhead]
    State ahead[kAhead];

    [[gnu::always_inline]] const State& state() {
      if (i == ready) {
        ready = std::min(numChildren, i + kAhead);
        for (int k = i; k < ready; ++k) ahead[k % kAhead] = childState(parent.state, k);
      }
      return ahead[i++ % kAhead];
    }
    [[gnu::always_inline]] Node next() { return makeNode(space, state(), parent.height + 1); }
    // The same child written field by field into the engine's frame: built in a temporary and
    // copied, its 16-byte loads straddled the temporary's smaller stores just made (a failed store
    // forward per node, about 10 % of UTS on one worker in the parallel skeletons). The child count
    // is read from the local state, not from `out` just written, for the same reason.
    [[gnu::always_inline]] void nextInto(Node& out) {
      const State s = state();
      const int h = parent.height + 1;
      out.numChildren = numChildrenOf(space, s, h);
      out.state = s;
      out.height = h;
    }
  };
  // A saved task (a checkpoint; core/model.hpp, ChecksNodes): at the depth of its height, with the
  // child count its state gives. (The state itself, a SHA-1, cannot be traced back to the root.)
  static bool valid(const Space& t, const Node& n, int depth) {
    return n.height >= 0 && (depth < 0 || depth == n.height) && n.numChildren == numChildrenOf(t, n.state, n.height);
  }
};

// Enumerator: nodes, leaves and the deepest height (a monoid, so parallel skeletons can combine).
struct Counts {
  std::uint64_t nodes = 0, leaves = 0, maxDepth = 0;
  void accumulate(const Node& n) {
    ++nodes;
    leaves += (n.numChildren == 0);
    maxDepth = std::max<std::uint64_t>(maxDepth, static_cast<std::uint64_t>(n.height));
  }
  void combine(const Counts& o) {
    nodes += o.nodes;
    leaves += o.leaves;
    maxDepth = std::max(maxDepth, o.maxDepth);
  }
  // Every node visited is counted (core/model.hpp, ChecksCounts).
  bool consistentWith(const SearchStats& s) const { return nodes == s.nodes && leaves <= nodes && maxDepth <= s.maxDepth; }
  const Counts& get() const { return *this; }
};

}  // namespace jackdaw::uts
