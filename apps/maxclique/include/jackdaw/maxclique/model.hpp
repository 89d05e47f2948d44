// Maximum clique as a Jackdaw search model: bitset branch and bound with a greedy-colouring bound
// (MCSa/BBMC), Tomita's re-colouring ("Re-NUMBER", MCS), a MaxSAT test on the vertices left above
// the pruning colour (Li and Quan's unit propagation) and a degeneracy initial order.
// docs/maxclique.md explains the choices and cites the papers.
//
//   #include "jackdaw/maxclique/model.hpp"      // link jackdaw_maxclique
//   auto g = jackdaw::maxclique::readDimacs(path);
//   using M = jackdaw::maxclique::MaxClique<4>;  // 4 words: up to 256 vertices (see dispatch.hpp)
//   auto space = M::makeSpace(g);
//   auto r = jackdaw::seq::search<M, jackdaw::Optimisation>(space, M::root(space), {});
//   *r.objective == omega; M::originalVertices(space, *r.best) lists the clique (0-based, file order)
//
// Search order: vertices are renumbered in degeneracy order (the last has the smallest degree, the
// one before it the smallest once the last is gone, ...). A node is a clique C and its candidates P
// (vertices adjacent to all of C). Its generator colours P greedily, class by class; a vertex of
// colour k can extend C by at most k vertices from P, so the child C+v has bound |C| + colour(v).
// Children come in reverse colour order, so bounds never increase along siblings: once one fails,
// the rest fail too (pruneLevel).
//
// Re-colouring: with `best` the largest clique found so far, children of colour <= kmin = best - |C|
// are pruned; only vertices coloured above kmin are branched on. Such a vertex v is moved below
// instead when it has a single neighbour w in some class k1 < kmin and w fits a class k2 in
// (k1, kmin]: one branch fewer. Vertices that stay at or below kmin all get the bound |C| + kmin
// (they are cut at the first). Once re-NUMBER fails, the MaxSAT test takes over: a vertex whose
// unit clause, propagated through the classes 1..kmin, empties one of them, goes below too
// (failedByUnitPropagation). The generator learns `best` from the engine (IncumbentView): the
// incumbent of an optimisation, or a decision's goal less one; any value keeps every bound valid,
// a low one only re-colours less.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "jackdaw/core/bitset.hpp"
#include "jackdaw/core/incumbent_view.hpp"
#include "jackdaw/maxclique/dimacs.hpp"

namespace jackdaw::maxclique {

template <std::size_t Words>
struct MaxClique {
  using Set = BitSet<Words>;
  static constexpr std::size_t maxVertices = Set::capacity;
  static_assert(maxVertices <= 65536, "vertex indices are stored as uint16");

  struct Space {
    int n = 0;
    std::vector<Set> adj;       // adjacency, in search order
    std::vector<int> original;  // search index -> vertex of the file (0-based)
    // The MaxSAT test on every vertex above kmin, not only up to the first it cannot move down:
    // worth it where the incumbent is ω or close to it (docs/maxclique.md); the app sets it.
    bool testEveryBranch = false;
  };

  struct Node {
    Set clique;      // search-order indices of C
    Set candidates;  // P: vertices adjacent to every vertex of C
    int size = 0;    // |C|
    int bound = 0;   // no clique in this subtree is larger
    int getObj() const { return size; }
    template <class Archive>
    void serialize(Archive& ar) { ar(clique, candidates, size, bound); }
  };

  class Generator {
   public:
    std::size_t numChildren = 0;

    // `best`: what the engine knows (the incumbent, or a decision's goal less one: what cannot
    // reach the goal is cut as if that were the incumbent). Only the engine moves it, never a
    // generator, so a search under a frozen bound builds the same tree on any number of workers.
    Generator(const Space& space, const Node& parent, IncumbentView<int> best)
        : space_(space), parent_(parent), left_(parent.candidates) {
      int known = best.bestOr(0);
      if (const int* goal = best.goal()) known = std::max(known, *goal - 1);
      // Clamped: a node at or above it re-colours nothing, and no class exceeds n.
      colour(std::clamp(known - parent.size, 0, space.n));
      numChildren = next_ = lowCount_ + count_;
    }
    // Outside a search (tests): nothing known, no re-colouring.
    Generator(const Space& space, const Node& parent) : Generator(space, parent, IncumbentView<int>{}) {}

    Node next() {
      const std::size_t k = --next_;  // highest colour first
      std::size_t v;
      int col;
      if (k >= lowCount_) {
        v = order_[k - lowCount_];
        col = colour_[k - lowCount_];
      } else {  // colour <= kmin: the engine cuts it (its incumbent is at least `best`)
        v = low_.first();
        low_.reset(v);
        col = lowTop_;
      }
      Node c{parent_.clique, left_ & space_.adj[v], parent_.size + 1, parent_.size + col};
      c.clique.set(v);
      left_.reset(v);  // later siblings must not use v: the subtree of C+v covered it
      return c;
    }

   private:
    using Word = typename Set::Word;

    // Colour classes 1..kmin as vertex lists, needed only while colouring, so one scratch per
    // thread: row k holds class k, n entries wide ((kmin + 1) * n uint16 in all).
    struct Classes {
      std::vector<std::uint16_t> data, size;
      std::size_t stride = 0;
      // The MaxSAT test's: the classes no inconsistent subset has taken yet (`free`); during one
      // test, each class's members in N(v) (`mem`, from `off`, `cnt` of them), the classes with
      // two or more such members (`open`) and the unit classes in the order found (`units`).
      std::vector<std::uint16_t> mem, off, cnt;
      std::vector<std::uint8_t> taken;
      std::vector<int> free, open, units;
      void fit(int rows, std::size_t n) {
        if (stride != n) stride = n, size.clear();
        const auto r = static_cast<std::size_t>(rows);
        if (size.size() < r) size.resize(r), data.resize(r * stride);
      }
      std::uint16_t* row(int k) { return data.data() + static_cast<std::size_t>(k) * stride; }
    };
    static Classes& scratch() {
      thread_local Classes c;
      return c;
    }

    // Greedy colouring: each class repeatedly takes the lowest uncoloured vertex and drops its
    // neighbours. Classes 1..kmin go to `cls`; above kmin, vertices are recorded in the order they
    // were coloured, unless reNumber moves them down. The current word stays in a register (`q`
    // is read again only when the sweep reaches its next word).
    void colour(int kmin) {
      Classes& cls = scratch();
      cls.fit(kmin + 1, static_cast<std::size_t>(space_.n));
      Set uncoloured = parent_.candidates;
      bool renumbering = kmin > 1;
      bool maxsat = false;  // the MaxSAT test runs from re-NUMBER's first failure to its own
      int col = 0;
      std::size_t low = 0;  // words below `low` of `uncoloured` are empty
      while (true) {
        while (low < Words && uncoloured.word(low) == 0) ++low;
        if (low == Words) break;
        ++col;
        Set q = uncoloured;
        if (col <= kmin) {
          std::uint16_t* members = cls.row(col);
          std::size_t m = 0;
          for (std::size_t w = low; w < Words; ++w) {
            Word cur = q.word(w), taken = 0;
            while (cur != 0) {
              const Word b = cur & (~cur + 1);
              const std::size_t v = w * 64 + static_cast<std::size_t>(std::countr_zero(cur));
              members[m++] = static_cast<std::uint16_t>(v);
              taken |= b;
              q.andNot(space_.adj[v]);  // full width: a fixed trip count unrolls
              cur = (cur ^ b) & ~space_.adj[v].word(w);
            }
            uncoloured.word(w) &= ~taken;
          }
          cls.size[col] = static_cast<std::uint16_t>(m);
          lowCount_ += m;
          continue;
        }
        if (col == kmin + 1) low_ = parent_.candidates, low_.andNot(uncoloured);
        const std::size_t recorded = count_;
        for (std::size_t w = low; w < Words; ++w) {
          Word cur = q.word(w), taken = 0;
          while (cur != 0) {
            const Word b = cur & (~cur + 1);
            const std::size_t v = w * 64 + static_cast<std::size_t>(std::countr_zero(cur));
            taken |= b;
            cur ^= b;
            if (renumbering) {
              if (reNumber(cls, v, kmin)) {
                low_.set(v), ++lowCount_;
                continue;
              }
              // v stays above kmin, so this node branches anyway; trying the vertices after it
              // costs more than the branches it saves (measured: bench/results/maxclique_bound.md).
              renumbering = false;
              maxsat = true;
              startMaxSat(cls, kmin);
            }
            if (maxsat) {
              if (failedByUnitPropagation(v)) {
                low_.set(v), ++lowCount_;
                continue;
              }
              // As with re-NUMBER: past the first failure, more tests usually cost more than they
              // save, unless the incumbent is already (near) optimal.
              maxsat = space_.testEveryBranch;
            }
            order_[count_] = static_cast<std::uint16_t>(v);
            colour_[count_++] = static_cast<std::uint16_t>(col);
            q.andNot(space_.adj[v]);
            cur &= ~space_.adj[v].word(w);
          }
          uncoloured.word(w) &= ~taken;
        }
        if (count_ == recorded) --col;  // every vertex moved down: no new class
      }
      if (col <= kmin) low_ = parent_.candidates;  // nothing above kmin
      lowTop_ = std::min(col, kmin);
    }

    // The MaxSAT test (Li and Quan 2010; CliSAT applies it to the branching vertices,
    // docs/maxclique.md): when it starts, every class 1..kmin is free.
    void startMaxSat(Classes& cls, int kmin) {
      const auto rows = static_cast<std::size_t>(kmin) + 1;
      if (cls.off.size() < rows) cls.off.resize(rows), cls.cnt.resize(rows);
      cls.taken.assign(rows, 0);
      if (cls.mem.size() < cls.stride) cls.mem.resize(cls.stride);
      cls.free.clear();
      for (int k = 1; k <= kmin; ++k) cls.free.push_back(k);
    }

    // v is about to be coloured above kmin. Each free class k (of 1..kmin) is read as the clause
    // "the clique takes a vertex of k", v as the unit clause {v}. If a free class has no neighbour
    // of v, v joins it (the class stays independent). Otherwise unit propagation: a class whose
    // vertices in N(v) shrink to one, u, forces u, which removes u's non-neighbours from the other
    // classes. If a class empties, the classes involved ({v}, the forced ones, the empty one) form
    // an inconsistent subset: no clique takes a vertex from each. They are taken (no longer free),
    // and v goes down with the vertices of colour <= kmin. With r vertices moved down this way there
    // are kmin + r "classes" among those vertices and r disjoint inconsistent subsets, so they hold
    // no clique above kmin: the bound |C| + kmin they all get stays valid.
    // Classes are short lists here (a few vertices each on dense graphs), so each works on its
    // members' adjacency bits rather than on whole bitsets; only the classes still open are visited.
    bool failedByUnitPropagation(std::size_t v) {
      Classes& cls = scratch();
      cls.open.clear(), cls.units.clear();
      std::size_t pos = 0;
      for (const int k : cls.free) {
        const std::size_t c = keepAdjacent(cls.row(k), cls.size[k], cls.mem.data() + pos, space_.adj[v]);
        if (c == 0) {  // no neighbour of v: v joins the class
          cls.row(k)[cls.size[k]++] = static_cast<std::uint16_t>(v);
          return true;
        }
        cls.off[k] = static_cast<std::uint16_t>(pos), cls.cnt[k] = static_cast<std::uint16_t>(c);
        pos += c;
        (c == 1 ? cls.units : cls.open).push_back(k);
      }
      for (std::size_t head = 0; head < cls.units.size(); ++head) {
        const Set& nu = space_.adj[cls.mem[cls.off[cls.units[head]]]];
        // A forced vertex not adjacent to u empties its class.
        for (std::size_t i = head + 1; i < cls.units.size(); ++i)
          if (!nu.test(cls.mem[cls.off[cls.units[i]]])) return take(cls, head, cls.units[i]);
        for (std::size_t i = 0; i < cls.open.size(); ++i) {
          const int j = cls.open[i];
          std::uint16_t* m = cls.mem.data() + cls.off[j];
          const std::size_t c = keepAdjacent(m, cls.cnt[j], m, nu);
          if (c == 0) return take(cls, head, j);
          cls.cnt[j] = static_cast<std::uint16_t>(c);
          if (c == 1)  // a unit now: off the open list (the last open class moves into slot i)
            cls.units.push_back(j), cls.open[i--] = cls.open.back(), cls.open.pop_back();
        }
      }
      return false;
    }

    // Copies the vertices of from[0, size) that are in n to `to` (which may be `from`), in order;
    // returns how many. No branch on the test: its outcome is unpredictable.
    static std::size_t keepAdjacent(const std::uint16_t* from, std::size_t size, std::uint16_t* to, const Set& n) {
      std::size_t c = 0;
      for (std::size_t t = 0; t < size; ++t) {
        const std::uint16_t u = from[t];
        to[c] = u;
        c += n.test(u);
      }
      return c;
    }

    // The inconsistent subset found: units[0..head] and the emptied class `j` are no longer free.
    static bool take(Classes& cls, std::size_t head, int j) {
      cls.taken[static_cast<std::size_t>(j)] = 1;
      for (std::size_t i = 0; i <= head; ++i) cls.taken[static_cast<std::size_t>(cls.units[i])] = 1;
      std::erase_if(cls.free, [&](int k) { return cls.taken[static_cast<std::size_t>(k)] != 0; });
      return true;
    }

    // Re-NUMBER (Tomita et al. 2010): v, about to be coloured above kmin, joins a class k1 < kmin
    // where it has no neighbour, or exactly one, w, that can move to a class k2 in (k1, kmin].
    bool reNumber(Classes& cls, std::size_t v, int kmin) {
      const Set& nv = space_.adj[v];
      for (int k1 = 1; k1 < kmin; ++k1) {
        std::uint16_t* c1 = cls.row(k1);
        const std::size_t n1 = cls.size[k1];
        std::size_t hit = n1, i = 0;
        for (; i < n1; ++i)
          if (nv.test(c1[i])) {
            if (hit != n1) break;  // two neighbours
            hit = i;
          }
        if (i < n1) continue;
        if (hit == n1) {
          c1[cls.size[k1]++] = static_cast<std::uint16_t>(v);
          return true;
        }
        const Set& nw = space_.adj[c1[hit]];
        for (int k2 = k1 + 1; k2 <= kmin; ++k2) {
          std::uint16_t* c2 = cls.row(k2);
          const std::size_t n2 = cls.size[k2];
          std::size_t j = 0;
          while (j < n2 && !nw.test(c2[j])) ++j;
          if (j < n2) continue;
          c2[cls.size[k2]++] = c1[hit];
          c1[hit] = static_cast<std::uint16_t>(v);
          return true;
        }
      }
      return false;
    }

    const Space& space_;
    const Node& parent_;  // the skeleton keeps the parent alive while we live
    Set left_;            // P minus the vertices already branched on
    Set low_{};           // vertices coloured 1..kmin (after re-colouring)
    int lowTop_ = 0;      // their bound: the highest of those colours
    std::size_t count_ = 0, next_ = 0, lowCount_ = 0;
    // Vertices coloured above kmin, in colouring order. Left uninitialised on purpose: only the
    // first count_ entries are ever read.
    std::array<std::uint16_t, maxVertices> order_;
    std::array<std::uint16_t, maxVertices> colour_;
  };

  static int bound(const Space&, const Node& n) { return n.bound; }
  static constexpr bool pruneLevel = true;

  // Renumbers in degeneracy order (Matula and Beck 1983; the initial order of MCS and BBMC):
  // repeatedly the vertex of smallest degree among those left goes last (ties: smaller degree in
  // g, then earlier in the file). Builds the adjacency bitsets. O(n^2).
  // The caller picks Words so that g.n <= maxVertices (dispatch.hpp does).
  static Space makeSpace(const DimacsGraph& g) {
    const auto n = static_cast<std::size_t>(g.n);
    std::vector<int> degree(n, 0);
    std::vector<std::vector<int>> neighbours(n);
    for (auto [u, v] : g.edges) ++degree[u], ++degree[v], neighbours[u].push_back(v), neighbours[v].push_back(u);
    Space s;
    s.n = g.n;
    s.original.resize(n);
    std::vector<int> left = degree;  // degree among the vertices not yet placed; -1 once placed
    for (std::size_t pos = n; pos-- > 0;) {
      int pick = -1;
      for (int v = 0; v < g.n; ++v)
        if (left[v] >= 0 && (pick < 0 || left[v] < left[pick] || (left[v] == left[pick] && degree[v] < degree[pick])))
          pick = v;
      s.original[pos] = pick;
      left[pick] = -1;
      for (int u : neighbours[pick])
        if (left[u] > 0) --left[u];
    }
    std::vector<int> position(n);
    for (std::size_t i = 0; i < n; ++i) position[s.original[i]] = static_cast<int>(i);
    s.adj.assign(n, Set{});
    for (auto [u, v] : g.edges) {
      s.adj[position[u]].set(position[v]);
      s.adj[position[v]].set(position[u]);
    }
    return s;
  }

  // The same graph renumbered in "colour sort" order (CliSAT's COLOR-SORT, reversed): s's vertices
  // coloured greedily in s's order, class by class, then listed last class first. The app uses it
  // only where it proves the initial clique optimal at the root (rootProves), as on Sanchis's gen
  // graphs, whose planted clique the root colouring in degeneracy order never matches.
  static Space colourSorted(const Space& s) {
    const auto n = static_cast<std::size_t>(s.n);
    std::vector<int> order;  // new index -> old index
    Set uncoloured{};
    uncoloured.setFirst(n);
    while (!uncoloured.empty()) {
      Set q = uncoloured;
      while (!q.empty()) {
        const std::size_t v = q.first();
        order.push_back(static_cast<int>(v));
        uncoloured.reset(v), q.reset(v), q.andNot(s.adj[v]);
      }
    }
    std::reverse(order.begin(), order.end());
    std::vector<std::size_t> position(n);
    for (std::size_t i = 0; i < n; ++i) position[static_cast<std::size_t>(order[i])] = i;
    Space r;
    r.n = s.n;
    r.original.resize(n);
    r.adj.assign(n, Set{});
    for (std::size_t i = 0; i < n; ++i) {
      r.original[i] = s.original[static_cast<std::size_t>(order[i])];
      s.adj[static_cast<std::size_t>(order[i])].forEach([&](std::size_t u) { r.adj[i].set(position[u]); });
    }
    return r;
  }

  // True if the root's generator, told that a clique of `known` vertices exists, leaves no child
  // that could beat it: no clique larger than `known` exists.
  static bool rootProves(const Space& s, int known) {
    std::atomic<int> best{known};
    std::atomic<bool> has{true};
    const Node r = root(s);
    Generator gen(s, r, IncumbentView<int>(&best, &has, nullptr));
    for (std::size_t i = 0; i < gen.numChildren; ++i)
      if (gen.next().bound > known) return false;
    return true;
  }

  // What names a node across runs (a trace's levels match tasks by it): its clique. Its bound
  // and candidates depend on how the parent was coloured, which depends on what the run had seen.
  static std::uint64_t identity(const Node& n) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (std::size_t w = 0; w < Words; ++w) h = (h ^ n.clique.word(w)) * 0x100000001b3ULL + (h >> 29);
    return h;
  }

  static Node root(const Space& s) {
    Node r;
    r.candidates.setFirst(static_cast<std::size_t>(s.n));
    r.bound = s.n;
    return r;
  }

  // A saved task or incumbent (a checkpoint; core/model.hpp, ChecksNodes): a clique of the graph
  // at the depth of its size, whose candidates are outside it and adjacent to all of it, and whose
  // bound is at least its size (a lower bound than the colouring gave cannot be told apart).
  static bool valid(const Space& s, const Node& n, int depth) {
    Set all;
    all.setFirst(static_cast<std::size_t>(s.n));
    Set outside = n.clique;
    outside.andNot(all);
    Set stray = n.candidates;
    stray.andNot(all);
    if (!outside.empty() || !stray.empty() || static_cast<int>(n.clique.count()) != n.size) return false;
    if ((depth >= 0 && depth != n.size) || n.bound < n.size || n.bound > s.n) return false;
    bool ok = true;
    n.clique.forEach([&](std::size_t v) {
      Set others = n.clique;
      others.andNot(s.adj[v]);  // left: v itself, if the clique is one
      Set cand = n.candidates;
      cand.andNot(s.adj[v]);
      ok = ok && others.count() == 1 && others.test(v) && cand.empty();
    });
    return ok;
  }

  // The node's clique as vertices of the file (0-based), ascending.
  static std::vector<int> originalVertices(const Space& s, const Node& n) {
    std::vector<int> out;
    n.clique.forEach([&](std::size_t i) { out.push_back(s.original[i]); });
    std::sort(out.begin(), out.end());
    return out;
  }
};

// True if every pair of `vertices` (0-based) is an edge of g.
inline bool isClique(const DimacsGraph& g, const std::vector<int>& vertices) {
  for (std::size_t i = 0; i < vertices.size(); ++i)
    for (std::size_t j = i + 1; j < vertices.size(); ++j) {
      const auto e = std::minmax(vertices[i], vertices[j]);
      if (e.first == e.second || !std::binary_search(g.edges.begin(), g.edges.end(), std::pair<int, int>(e)))
        return false;
    }
  return true;
}

}  // namespace jackdaw::maxclique
