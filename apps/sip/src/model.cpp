#include "jackdaw/sip/model.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <utility>

// The per-node functions count bits all the time: on x86-64 they get a clone built with the
// POPCNT instruction, picked at load time where the CPU has it (the baseline build calls a library
// routine per word). Measured on si2_r005_m200.00: 0.075 -> 0.05 s of search.
#if defined(__x86_64__) && defined(__has_attribute) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#if __has_attribute(target_clones)
#define JACKDAW_SIP_POPCNT_CLONES [[gnu::target_clones("popcnt", "default")]]
#endif
#endif
#ifndef JACKDAW_SIP_POPCNT_CLONES
#define JACKDAW_SIP_POPCNT_CLONES
#endif

namespace jackdaw::sip {

namespace {

int popcount(const std::uint64_t* d, int words) {
  int c = 0;
  for (int w = 0; w < words; ++w) c += __builtin_popcountll(d[w]);
  return c;
}

int firstBit(const std::uint64_t* d, int words) {
  for (int w = 0; w < words; ++w)
    if (d[w]) return w * 64 + __builtin_ctzll(d[w]);
  return -1;
}

template <class F>
void forEachBit(const std::uint64_t* d, int words, F f) {
  for (int w = 0; w < words; ++w)
    for (std::uint64_t b = d[w]; b; b &= b - 1) f(w * 64 + __builtin_ctzll(b));
}

inline void setBit(std::uint64_t* d, int v) { d[v >> 6] |= std::uint64_t{1} << (v & 63); }
inline bool testBit(const std::uint64_t* d, int v) { return (d[v >> 6] >> (v & 63)) & 1; }

// All-different over the open rows (state 0): rows smallest first; their running union must
// hold at least as many values as rows, and a union holding exactly as many is a Hall set whose
// values leave every later row. Rows left with one value are queued as units. False on failure.
JACKDAW_SIP_POPCNT_CLONES bool hallFilter(const Space& s, Node& n, std::vector<char>& state, std::vector<int>& units) {
  const int W = s.target.words, R = static_cast<int>(n.vars.size());
  thread_local std::vector<int> first, next;
  thread_local std::vector<std::uint64_t> sofar, hall;
  first.assign(R + 2, -1);
  next.assign(R, -1);
  int open = 0;
  for (int i = R - 1; i >= 0; --i) {
    if (state[i] != 0) continue;
    const int c = std::min(n.counts[i], R + 1);
    next[i] = first[c];
    first[c] = i;
    ++open;
  }
  if (open == 0) return true;
  sofar.assign(W, 0);
  hall.assign(W, 0);
  bool anyHall = false;
  int seen = 0;
  for (int c = 0; c <= R + 1; ++c)
    for (int i = first[c]; i >= 0; i = next[i]) {
      std::uint64_t* d = &n.domains[static_cast<std::size_t>(i) * W];
      if (anyHall) {
        int cnt = 0;
        for (int w = 0; w < W; ++w) cnt += __builtin_popcountll(d[w] &= ~hall[w]);
        if (cnt != n.counts[i]) {
          n.counts[i] = cnt;
          if (cnt == 0) return false;
          if (cnt == 1) state[i] = 1, units.push_back(i);
        }
      }
      int u = 0;
      for (int w = 0; w < W; ++w) u += __builtin_popcountll(sofar[w] |= d[w]);
      ++seen;
      if (u < seen) return false;
      if (u == seen) {
        std::memcpy(hall.data(), sofar.data(), sizeof(std::uint64_t) * W);
        anyHall = true;
      }
    }
  return true;
}

// Propagates from p0 -> v0 (p0 already out of n's rows and in n.image), or, with p0 < 0, from
// every one-value row. Sets n.dead on a wipe-out; on success the rows assigned here are removed.
JACKDAW_SIP_POPCNT_CLONES void propagate(const Space& s, Node& n, int p0, int v0) {
  const int W = s.target.words, np = s.pattern.n, K = s.graphs;
  const int R = static_cast<int>(n.vars.size());
  thread_local std::vector<char> state;  // 0 open, 1 queued unit, 2 assigned here
  thread_local std::vector<int> units;
  state.assign(R, 0);
  units.clear();
  auto die = [&] {
    n.dead = true;
    n.domains.clear();
    n.vars.clear();
    n.counts.clear();
  };
  if (p0 < 0)
    for (int i = 0; i < R; ++i) {
      if (n.counts[i] == 0) return die();
      if (n.counts[i] == 1) state[i] = 1, units.push_back(i);
    }
  int p = p0, v = v0;
  for (;;) {
    if (p >= 0) {
      const std::uint8_t* pa = &s.patternAdj[static_cast<std::size_t>(p) * np];
      const std::uint64_t vbit = std::uint64_t{1} << (v & 63);
      const int vw = v >> 6;
      const std::uint64_t* rows[8];
      for (int i = 0; i < R; ++i) {
        if (state[i] == 2) continue;
        std::uint64_t* d = &n.domains[static_cast<std::size_t>(i) * W];
        const unsigned mask = pa[n.vars[i]];
        int cnt;
        if (mask == 0 && !s.induced) {
          if (!(d[vw] & vbit)) continue;
          d[vw] &= ~vbit;
          cnt = --n.counts[i];
        } else {
          d[vw] &= ~vbit;
          int k = 0;
          for (int g = 1; g < K; ++g)
            if (mask >> g & 1) rows[k++] = s.targetRow(v, g);
          const std::uint64_t* t0 = s.targetRow(v, 0);
          cnt = 0;
          if (mask & 1) {
            for (int w = 0; w < W; ++w) {
              std::uint64_t x = d[w] & t0[w];
              for (int j = 0; j < k; ++j) x &= rows[j][w];
              d[w] = x;
              cnt += __builtin_popcountll(x);
            }
          } else if (s.induced) {
            for (int w = 0; w < W; ++w) {
              std::uint64_t x = d[w] & ~t0[w];
              for (int j = 0; j < k; ++j) x &= rows[j][w];
              d[w] = x;
              cnt += __builtin_popcountll(x);
            }
          } else {
            for (int w = 0; w < W; ++w) {
              std::uint64_t x = d[w];
              for (int j = 0; j < k; ++j) x &= rows[j][w];
              d[w] = x;
              cnt += __builtin_popcountll(x);
            }
          }
          n.counts[i] = cnt;
        }
        if (cnt == 0) return die();
        if (cnt == 1 && state[i] == 0) state[i] = 1, units.push_back(i);
      }
      p = -1;
    }
    if (!units.empty()) {
      const int i = units.back();
      units.pop_back();
      state[i] = 2;
      v = firstBit(&n.domains[static_cast<std::size_t>(i) * W], W);
      p = n.vars[i];
      n.image[p] = v;
      ++n.assigned;
      continue;
    }
    if (!s.opts.allDifferent) break;
    if (!hallFilter(s, n, state, units)) return die();
    if (units.empty()) break;
  }
  if (!s.opts.allDifferent && n.assigned < np) {
    // Without Hall sets, the weakest test: the open domains together hold enough values.
    thread_local std::vector<std::uint64_t> uni;
    uni.assign(W, 0);
    int open = 0;
    for (int i = 0; i < R; ++i)
      if (state[i] != 2) {
        ++open;
        for (int w = 0; w < W; ++w) uni[w] |= n.domains[static_cast<std::size_t>(i) * W + w];
      }
    if (popcount(uni.data(), W) < open) return die();
  }
  int j = 0;
  for (int i = 0; i < R; ++i) {
    if (state[i] == 2) continue;
    if (i != j) {
      std::memmove(&n.domains[static_cast<std::size_t>(j) * W], &n.domains[static_cast<std::size_t>(i) * W],
                   sizeof(std::uint64_t) * W);
      n.vars[j] = n.vars[i];
      n.counts[j] = n.counts[i];
    }
    ++j;
  }
  n.domains.resize(static_cast<std::size_t>(j) * W);
  n.vars.resize(j);
  n.counts.resize(j);
}

}  // namespace

Node childOf(const Space& s, const Node& parent, int row, int v) {
  const int W = s.target.words, R = static_cast<int>(parent.vars.size());
  Node c;
  c.domains.resize(static_cast<std::size_t>(R - 1) * W);
  const std::size_t before = static_cast<std::size_t>(row) * W;
  std::copy(parent.domains.begin(), parent.domains.begin() + before, c.domains.begin());
  std::copy(parent.domains.begin() + before + W, parent.domains.end(), c.domains.begin() + before);
  c.vars.reserve(R - 1);
  c.counts.reserve(R - 1);
  for (int i = 0; i < R; ++i)
    if (i != row) c.vars.push_back(parent.vars[i]), c.counts.push_back(parent.counts[i]);
  c.image = parent.image;
  const int p = parent.vars[row];
  c.image[p] = v;
  c.assigned = parent.assigned + 1;
  propagate(s, c, p, v);
  return c;
}

void assign(const Space& s, Node& n, int p, int v) {
  const auto it = std::find(n.vars.begin(), n.vars.end(), p);
  if (it == n.vars.end()) return;
  n = childOf(s, n, static_cast<int>(it - n.vars.begin()), v);
}

int branchRow(const Space& s, const Node& n) {
  int best = -1;
  for (int i = 0; i < static_cast<int>(n.vars.size()); ++i)
    if (best < 0 || n.counts[i] < n.counts[best] ||
        (n.counts[i] == n.counts[best] && s.pattern.degree[n.vars[i]] > s.pattern.degree[n.vars[best]]))
      best = i;
  return best;
}

namespace {

// Relabels the target by descending degree (stable), so that index order is the value order.
Graph byDegree(const Graph& g) {
  std::vector<int> order(g.n);
  for (int v = 0; v < g.n; ++v) order[v] = v;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return g.degree[a] > g.degree[b]; });
  std::vector<int> pos(g.n);
  for (int i = 0; i < g.n; ++i) pos[order[i]] = i;
  Graph h = g;
  std::fill(h.adj.begin(), h.adj.end(), 0);
  for (int i = 0; i < g.n; ++i) {
    const int v = order[i];
    h.degree[i] = g.degree[v];
    h.names[i] = g.names[v];
    forEachBit(g.row(v), g.words, [&](int u) { setBit(&h.adj[static_cast<std::size_t>(i) * h.words], pos[u]); });
  }
  return h;
}

// Rows (n * graphs rows of g.words words) of graph 0 (g itself, loops kept) and of the path graphs:
// in graph c, v and w (v != w) are adjacent if at least c paths v - x - w (x != v, w) link them.
std::vector<std::uint64_t> withPathGraphs(const Graph& g, int graphs) {
  const int n = g.n, W = g.words, C = graphs - 1;
  std::vector<std::uint64_t> rows(static_cast<std::size_t>(n) * graphs * W, 0);
  auto row = [&](int v, int k) { return &rows[(static_cast<std::size_t>(v) * graphs + k) * W]; };
  for (int v = 0; v < n; ++v) std::memcpy(row(v, 0), g.row(v), sizeof(std::uint64_t) * W);
  if (C == 0) return rows;
  std::vector<int> cnt(n, 0), touched;
  for (int v = 0; v < n; ++v) {
    forEachBit(g.row(v), W, [&](int x) {
      if (x == v) return;
      forEachBit(g.row(x), W, [&](int w) {
        if (w == x || w == v) return;
        if (cnt[w]++ == 0) touched.push_back(w);
      });
    });
    for (int w : touched) {
      for (int k = 1; k <= std::min(cnt[w], C); ++k) setBit(row(v, k), w);
      cnt[w] = 0;
    }
    touched.clear();
  }
  return rows;
}

// Degrees per graph (graph 0: loops not counted) and, if wanted, each vertex's neighbour degrees
// in graph 0, largest first. (Sequences in the supplemental graphs too, as the Glasgow solver
// has them, changed no node count on instances/sip and cost up to 70 ms on the scale-free pairs.)
struct DegreeInfo {
  std::vector<std::vector<int>> deg;   // [graph][v]
  std::vector<std::vector<int>> nds;   // [v], empty unless wanted
};

DegreeInfo degreeInfo(const std::vector<std::uint64_t>& rows, int n, int W, int graphs, bool nds) {
  DegreeInfo d;
  auto row = [&](int v, int k) { return &rows[(static_cast<std::size_t>(v) * graphs + k) * W]; };
  d.deg.assign(graphs, std::vector<int>(n, 0));
  for (int g = 0; g < graphs; ++g)
    for (int v = 0; v < n; ++v) d.deg[g][v] = popcount(row(v, g), W) - (testBit(row(v, g), v) ? 1 : 0);
  if (!nds) return d;
  d.nds.assign(n, {});
  for (int v = 0; v < n; ++v) {
    auto& s = d.nds[v];
    forEachBit(row(v, 0), W, [&](int u) {
      if (u != v) s.push_back(d.deg[0][u]);
    });
    std::sort(s.begin(), s.end(), std::greater<int>());
  }
  return d;
}

// Arc consistency at the root over every graph: t stays in D(p) only if every q related to p
// (adjacent in some graph; induced: also a non-neighbour with a small domain) keeps a value u != t
// in D(q) that t relates to the same way. Repeats to a fixpoint; an emptied domain stays empty.
void rootArcConsistency(Space& s) {
  const int np = s.pattern.n, W = s.target.words, K = s.graphs;
  constexpr int kSmallDomain = 8;
  auto dom = [&](int p) { return &s.rootDomains[static_cast<std::size_t>(p) * W]; };
  std::vector<int> related;
  for (bool changed = true; changed;) {
    changed = false;
    for (int p = 0; p < np; ++p) {
      std::uint64_t* dp = dom(p);
      related.clear();
      for (int q = 0; q < np; ++q)
        if (q != p && ((s.adjMask(p, q) & 1) || (s.induced && popcount(dom(q), W) <= kSmallDomain)))
          related.push_back(q);
      forEachBit(dp, W, [&](int t) {
        const std::uint64_t* t0 = s.targetRow(t, 0);
        bool ok = true;
        for (std::size_t r = 0; r < related.size() && ok; ++r) {
          const int q = related[r];
          const unsigned mask = s.adjMask(p, q);
          const std::uint64_t* dq = dom(q);
          bool support = false;
          for (int w = 0; w < W && !support; ++w) {
            std::uint64_t x = dq[w];
            if (mask & 1) x &= t0[w];
            else if (s.induced) x &= ~t0[w];
            for (int g = 1; g < K; ++g)
              if (mask >> g & 1) x &= s.targetRow(t, g)[w];
            if (w == (t >> 6)) x &= ~(std::uint64_t{1} << (t & 63));
            support = x != 0;
          }
          ok = support;
        }
        if (!ok) dp[t >> 6] &= ~(std::uint64_t{1} << (t & 63)), changed = true;
      });
      if (popcount(dp, W) == 0) return;
    }
  }
}

}  // namespace

std::uint64_t spaceBytes(std::uint64_t patternN, std::uint64_t targetN, const Options& opts) {
  const std::uint64_t graphs = 1 + static_cast<std::uint64_t>(std::clamp(opts.pathGraphs, 0, 7));
  const std::uint64_t tw = (targetN + 63) / 64, pw = (patternN + 63) / 64;
  return 8 * (graphs * targetN * tw + graphs * patternN * pw + 2 * patternN * tw) + patternN * patternN;
}

Space makeSpace(Graph pattern, Graph target, bool induced, Options opts) {
  Space s;
  s.pattern = std::move(pattern);
  s.target = byDegree(target);
  s.induced = induced;
  opts.pathGraphs = std::clamp(opts.pathGraphs, 0, 7);
  s.opts = opts;
  s.graphs = 1 + opts.pathGraphs;
  const int np = s.pattern.n, nt = s.target.n, W = s.target.words, K = s.graphs;
  s.targetRows = withPathGraphs(s.target, K);
  const auto patternRows = withPathGraphs(s.pattern, K);
  const int PW = s.pattern.words;
  s.patternAdj.assign(static_cast<std::size_t>(np) * np, 0);
  for (int p = 0; p < np; ++p)
    for (int g = 0; g < K; ++g)
      forEachBit(&patternRows[(static_cast<std::size_t>(p) * K + g) * PW], PW, [&](int q) {
        if (q != p) s.patternAdj[static_cast<std::size_t>(p) * np + q] |= static_cast<std::uint8_t>(1u << g);
      });
  const DegreeInfo dp = degreeInfo(patternRows, np, PW, K, opts.nds);
  const DegreeInfo dt = degreeInfo(s.targetRows, nt, W, K, opts.nds);
  s.rootDomains.assign(static_cast<std::size_t>(np) * W, 0);
  for (int p = 0; p < np; ++p)
    for (int t = 0; t < nt; ++t) {
      // A looped pattern vertex needs a looped target vertex, and induced embeddings also keep
      // unlooped vertices off looped ones. Degrees (in every graph) can only grow under an
      // embedding, and so can each entry of the sorted neighbour degrees.
      bool fits = (!s.pattern.loop(p) || s.target.loop(t)) && (!induced || s.pattern.loop(p) || !s.target.loop(t));
      for (int g = 0; fits && g < K; ++g) fits = dp.deg[g][p] <= dt.deg[g][t];
      if (opts.nds)
      {
        const auto &a = dp.nds[p], &b = dt.nds[t];
        for (std::size_t k = 0; fits && k < a.size(); ++k) fits = a[k] <= b[k];
      }
      if (fits) setBit(&s.rootDomains[static_cast<std::size_t>(p) * W], t);
    }
  if (opts.rootArcConsistency) rootArcConsistency(s);
  return s;
}

Node rootNode(const Space& s) {
  const int np = s.pattern.n, W = s.target.words;
  Node n;
  n.image.assign(np, -1);
  if (np > s.target.n) {
    n.dead = true;
    return n;
  }
  n.domains = s.rootDomains;
  n.vars.resize(np);
  n.counts.resize(np);
  for (int p = 0; p < np; ++p) {
    n.vars[p] = p;
    n.counts[p] = popcount(&n.domains[static_cast<std::size_t>(p) * W], W);
  }
  propagate(s, n, -1, -1);
  return n;
}

bool isEmbedding(const Space& s, const std::vector<std::int32_t>& image) {
  const int np = s.pattern.n;
  if (static_cast<int>(image.size()) != np) return false;
  std::vector<char> used(s.target.n, 0);
  for (int p = 0; p < np; ++p) {
    if (image[p] < 0 || image[p] >= s.target.n || used[image[p]]) return false;
    used[image[p]] = 1;
  }
  for (int p = 0; p < np; ++p)
    for (int q = 0; q < np; ++q) {
      const bool pe = s.pattern.adjacent(p, q), te = s.target.adjacent(image[p], image[q]);
      if (pe && !te) return false;
      if (s.induced && te && !pe) return false;
    }
  return true;
}

namespace {

struct Prober {
  const Space& s;
  ValueOrder order;
  std::uint64_t maxNodes;
  ProbeResult r;

  // False once the probe ends: an embedding found or the budget spent.
  bool visit(const Node& n) {
    if (n.dead) return true;  // not a node: the search's bound prunes it before its visit
    if (r.nodes == maxNodes) return false;
    ++r.nodes;
    if (n.complete()) {
      r.image = n.image;
      return false;
    }
    Generator g(s, n, order);
    for (std::size_t k = 0; k < g.numChildren; ++k)
      if (!visit(g.next())) return false;
    return true;
  }
};

}  // namespace

ProbeResult probe(const Space& s, ValueOrder order, std::uint64_t maxNodes) {
  Prober p{s, order, maxNodes, {}};
  if (maxNodes > 0) (void)p.visit(rootNode(s));
  return p.r;
}

}  // namespace jackdaw::sip
