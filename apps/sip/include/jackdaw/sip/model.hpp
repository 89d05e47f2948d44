// Subgraph isomorphism: map every pattern vertex to a distinct target vertex so that pattern edges
// land on target edges (and, with `induced`, non-edges on non-edges).
//
//   jackdaw::sip::Space s = jackdaw::sip::makeSpace(pattern, target, induced);
//   // decision: find one embedding
//   params.expectedObjective = s.pattern.n;
//   auto r = jackdaw::seq::search<SipModel, jackdaw::Decision>(s, rootNode(s), params);
//   // counting: every embedding
//   auto c = jackdaw::seq::search<SipModel, jackdaw::Enumeration<CountSolutions>>(s, rootNode(s), {});
//
// A node holds one domain per pattern vertex: the bitset of target vertices it may still take.
// Root domains respect degrees and loops. A child assigns the unassigned pattern vertex with the
// smallest domain to one of its values, then propagates (forward checking): the value leaves every
// other domain (injectivity), a pattern neighbour's domain shrinks to the value's target
// neighbours (induced: a non-neighbour's domain loses them), a one-value domain is assigned in
// turn, and a node dies if a domain empties or the open domains together hold too few values.
#pragma once

#include <cstdint>
#include <vector>

#include <cereal/types/vector.hpp>

#include "jackdaw/sip/graph.hpp"

namespace jackdaw::sip {

struct Space {
  Graph pattern, target;
  bool induced = false;
  std::vector<std::uint64_t> rootDomains;  // pattern.n rows of target.words words
};

Space makeSpace(Graph pattern, Graph target, bool induced);

struct Node {
  std::vector<std::uint64_t> domains;  // pattern.n rows of target.words words
  std::vector<std::int32_t> image;     // image[p] = target vertex, or -1 while unassigned
  int assigned = 0;
  bool dead = false;                   // propagation proved this subtree holds no embedding

  int getObj() const { return assigned; }  // decision target: every pattern vertex assigned
  bool complete() const { return !dead && assigned == static_cast<int>(image.size()); }
  template <class Archive>
  void serialize(Archive& ar) { ar(domains, image, assigned, dead); }
};

Node rootNode(const Space& s);

// Assigns p -> v in `n` and propagates; sets n.dead on a wipe-out.
void assign(const Space& s, Node& n, int p, int v);

// The open pattern vertex to branch on: smallest domain, then largest degree; -1 if none.
int branchVertex(const Space& s, const Node& n);

// True if `image` is an embedding of the pattern into the target under the space's rules.
bool isEmbedding(const Space& s, const std::vector<std::int32_t>& image);

struct Generator {
  const Space& space;
  const Node& parent;
  int p = -1;             // the pattern vertex this level assigns
  std::size_t numChildren = 0;
  std::size_t word = 0;   // scan position in p's domain
  std::uint64_t bits = 0;

  Generator(const Space& s, const Node& n) : space(s), parent(n) {
    if (n.dead) return;
    p = branchVertex(s, n);
    if (p < 0) return;
    const std::uint64_t* d = &n.domains[static_cast<std::size_t>(p) * s.target.words];
    for (int w = 0; w < s.target.words; ++w) numChildren += static_cast<std::size_t>(__builtin_popcountll(d[w]));
    bits = d[0];
  }

  Node next() {
    const std::uint64_t* d = &parent.domains[static_cast<std::size_t>(p) * space.target.words];
    while (bits == 0) bits = d[++word];
    const int v = static_cast<int>(word * 64) + __builtin_ctzll(bits);
    bits &= bits - 1;
    Node child = parent;
    assign(space, child, p, v);
    return child;
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
