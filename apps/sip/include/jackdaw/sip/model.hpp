// Subgraph isomorphism: map every pattern vertex to a distinct target vertex so that pattern edges
// land on target edges (and, with `induced`, non-edges on non-edges).
//
//   jackdaw::sip::Space s = jackdaw::sip::makeSpace(pattern, target, induced);   // Options{} by default
//   // decision: find one embedding
//   params.expectedObjective = s.pattern.n;
//   auto r = jackdaw::seq::search<SipModel, jackdaw::Decision>(s, rootNode(s), params);
//   // counting: every embedding
//   auto c = jackdaw::seq::search<SipModel, jackdaw::Enumeration<CountSolutions>>(s, rootNode(s), {});
//
// The model follows the constraint-programming design of the Glasgow Subgraph Solver (McCreesh,
// Prosser, Trimble, ICGT 2020), written here from the papers, not from its code:
//
// - Supplemental graphs. Besides the pattern and target graphs themselves (graph 0), graph c
//   (c = 1..Options::pathGraphs, default 4 as in Glasgow) joins two distinct vertices when at
//   least c paths of length 2 link them. An injective embedding maps c common neighbours of p and
//   q onto c distinct common neighbours of their images, so p ~c q forces image(p) ~c image(q):
//   each graph is one more adjacency constraint, built once in makeSpace. (Sound for induced
//   embeddings too, which are non-induced ones.)
// - Root filtering (makeSpace): loops; degree in every graph (p's degree may not exceed t's);
//   the neighbourhood degree sequence in graph 0 (Options::nds: p's k-th largest neighbour degree
//   may not exceed t's); then arc consistency to a fixpoint (Options::rootArcConsistency) over
//   each pattern edge (with the pair's masks in every graph; induced: also non-edges to small
//   domains). Nothing of this runs again below the root.
// - Per node: forward checking over bitset domains. Assigning p -> v removes v from every open
//   domain (injectivity) and intersects each open q's domain with v's row in every graph where
//   p and q are adjacent (induced: a non-neighbour's domain loses v's graph-0 neighbours). A
//   domain left with one value is assigned in turn (unit propagation). Then all-different
//   reasoning over the open domains (Options::allDifferent): taken smallest first, their running
//   union must hold at least as many values as domains, and a union holding exactly as many is a
//   Hall set whose values leave every later domain. This repeats until nothing is assigned.
// - Branching: the open pattern vertex with the smallest domain, ties by larger degree, then by
//   index; values in order of ascending target degree by default (Options::valueOrder; the target
//   is relabelled by degree, so the order is an index scan).
//
// - A probe before a decision's complete search (probe(), the app's --probe-nodes): depth-first
//   in the other value order, given up after a fixed number of nodes. Either order alone has heavy
//   tails on instances where the other is quick (si2_r001_m200.09 induced: 27,309 nodes ascending,
//   528 descending; si2_r005_m200.00: 23,421 against 1.35 M), the tails that Glasgow's randomised
//   restarts even out; the probe is one such restart, bounded, so it costs at most its budget and
//   proves nothing: only an embedding it finds is an answer.
//
// What each piece measured is in bench/results/vs-peers.md ("SIP against the Glasgow Subgraph
// Solver, second pass"). A node holds only the open (unassigned) pattern vertices' domains, so it
// shrinks with depth (the parallel skeletons copy one per child).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <cereal/types/vector.hpp>

#include "jackdaw/sip/graph.hpp"

namespace jackdaw::sip {

enum class ValueOrder { Degree, AntiDegree };  // by target degree: descending, ascending

struct Options {
  int pathGraphs = 4;               // supplemental graphs: >= c paths of length 2, c = 1..pathGraphs (0..7)
  bool nds = true;                  // neighbourhood degree sequences at the root
  bool rootArcConsistency = true;   // arc consistency over every graph at the root
  bool allDifferent = true;         // Hall-set filtering at every node
  ValueOrder valueOrder = ValueOrder::AntiDegree;
};

struct Space {
  Graph pattern, target;  // the target relabelled by descending degree (stable)
  bool induced = false;
  Options opts;
  int graphs = 1;                         // 1 + supplemental graphs
  std::vector<std::uint8_t> patternAdj;   // pattern.n^2 masks: bit g set if p ~ q in graph g
  std::vector<std::uint64_t> targetRows;  // target.n * graphs rows of target.words words
  std::vector<std::uint64_t> rootDomains;  // pattern.n rows of target.words words

  const std::uint64_t* targetRow(int t, int g) const {
    return &targetRows[(static_cast<std::size_t>(t) * graphs + g) * target.words];
  }
  std::uint8_t adjMask(int p, int q) const { return patternAdj[static_cast<std::size_t>(p) * pattern.n + q]; }
};

Space makeSpace(Graph pattern, Graph target, bool induced, Options opts = {});

// Bytes makeSpace needs beyond the two graphs (supplemental rows, masks, root domains).
std::uint64_t spaceBytes(std::uint64_t patternN, std::uint64_t targetN, const Options& opts);

struct Node {
  std::vector<std::uint64_t> domains;  // one row of target.words words per open pattern vertex
  std::vector<std::int32_t> vars;      // the pattern vertex of each row
  std::vector<std::int32_t> counts;    // each row's number of values
  std::vector<std::int32_t> image;     // image[p] = target vertex, or -1 while unassigned
  int assigned = 0;
  bool dead = false;                   // propagation proved this subtree holds no embedding

  int getObj() const { return assigned; }  // decision target: every pattern vertex assigned
  bool complete() const { return !dead && assigned == static_cast<int>(image.size()); }
  template <class Archive>
  void serialize(Archive& ar) { ar(domains, vars, counts, image, assigned, dead); }
};

Node rootNode(const Space& s);

// Assigns open pattern vertex p -> v in `n` and propagates; sets n.dead on a wipe-out.
void assign(const Space& s, Node& n, int p, int v);

// The row (index into n.vars) to branch on: smallest domain, then largest degree; -1 if none.
int branchRow(const Space& s, const Node& n);
// The open pattern vertex to branch on, or -1.
inline int branchVertex(const Space& s, const Node& n) {
  const int r = branchRow(s, n);
  return r < 0 ? -1 : n.vars[r];
}

// True if `image` is an embedding of the pattern into the target under the space's rules.
bool isEmbedding(const Space& s, const std::vector<std::int32_t>& image);

// The child of `parent` with the open row `row` (pattern vertex parent.vars[row]) assigned v.
Node childOf(const Space& s, const Node& parent, int row, int v);

// The bounded probe: depth-first from the root, values in `order`, at most maxNodes nodes
// (counted as the search counts them: a child that propagation kills is not one). An embedding
// found, or none.
struct ProbeResult {
  std::optional<std::vector<std::int32_t>> image;
  std::uint64_t nodes = 0;
};
ProbeResult probe(const Space& s, ValueOrder order, std::uint64_t maxNodes);

struct Generator {
  const Space& space;
  const Node& parent;
  int row = -1;           // the row (pattern vertex parent.vars[row]) this level assigns
  std::size_t numChildren = 0;
  ValueOrder order = ValueOrder::AntiDegree;
  int word = 0;           // scan position in the row
  std::uint64_t bits = 0;

  Generator(const Space& s, const Node& n) : Generator(s, n, s.opts.valueOrder) {}
  // Values in `o`, whatever the space's order (the probe's).
  Generator(const Space& s, const Node& n, ValueOrder o) : space(s), parent(n), order(o) {
    if (n.dead) return;
    row = branchRow(s, n);
    if (row < 0) return;
    numChildren = static_cast<std::size_t>(n.counts[row]);
    word = order == ValueOrder::Degree ? 0 : s.target.words - 1;
    bits = dom()[word];
  }

  const std::uint64_t* dom() const { return &parent.domains[static_cast<std::size_t>(row) * space.target.words]; }

  Node next() {
    const std::uint64_t* d = dom();
    int v;
    if (order == ValueOrder::Degree) {  // ascending index = descending degree
      while (bits == 0) bits = d[++word];
      v = word * 64 + __builtin_ctzll(bits);
      bits &= bits - 1;
    } else {
      while (bits == 0) bits = d[--word];
      const int b = 63 - __builtin_clzll(bits);
      v = word * 64 + b;
      bits &= ~(std::uint64_t{1} << b);
    }
    return childOf(space, parent, row, v);
  }
};

struct SipModel {
  using Space = sip::Space;
  using Node = sip::Node;
  using Generator = sip::Generator;
  // Decision bound: a dead node can reach no more assigned vertices than it has now.
  static int bound(const Space& s, const Node& n) { return n.dead ? -1 : s.pattern.n; }
};

// Enumerator counting complete assignments (embeddings).
struct CountSolutions {
  std::uint64_t count = 0;
  void accumulate(const Node& n) { count += n.complete() ? 1 : 0; }
  void combine(const CountSolutions& o) { count += o.count; }
  std::uint64_t get() const { return count; }
};

}  // namespace jackdaw::sip
