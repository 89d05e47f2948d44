// Subgraph isomorphism: the test rows of instances/sip/ANSWERS.tsv, the loop rules, small known counts.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <functional>
#include <random>
#include <regex>
#include <sstream>

#include "jackdaw/sip/model.hpp"
#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/seq.hpp"

namespace sip = jackdaw::sip;

namespace {

struct Outcome {
  bool sat;
  std::uint64_t count;
};

bool decide(const sip::Space& s) {
  jackdaw::SearchParams<int> params;
  params.expectedObjective = s.pattern.n;
  auto r = jackdaw::seq::search<sip::SipModel, jackdaw::Decision>(s, sip::rootNode(s), params);
  EXPECT_TRUE(r.complete());
  if (r.best) {
    EXPECT_TRUE(sip::isEmbedding(s, r.best->image)) << "the mapping found is not an embedding";
  }
  return r.best.has_value();
}

std::uint64_t count(const sip::Space& s) {
  auto r = jackdaw::seq::search<sip::SipModel, jackdaw::Enumeration<sip::CountSolutions>>(s, sip::rootNode(s), {});
  EXPECT_TRUE(r.complete());
  return r.enumerator.get();
}

// CTest runs each test as its own process, several at once: the name carries the process id so
// two tests never write the same file.
std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + std::to_string(::getpid()) + "-" + name;
  std::ofstream(path) << text;
  return path;
}

sip::Space spaceOf(const std::string& pattern, const std::string& target, bool induced) {
  return sip::makeSpace(sip::readGraph(writeTemp("p.csv", pattern)), sip::readGraph(writeTemp("t.csv", target)),
                        induced);
}

struct Row {
  std::string pattern, target, variant, answer;
};
void PrintTo(const Row& r, std::ostream* os) { *os << r.pattern << " -> " << r.target << " (" << r.variant << ")"; }

std::vector<Row> answerRows() {
  std::ifstream in(std::string(JACKDAW_INSTANCES) + "/sip/ANSWERS.tsv");
  std::vector<Row> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::istringstream f(line);
    Row r;
    std::string kind;
    std::getline(f, r.pattern, '\t');
    std::getline(f, r.target, '\t');
    std::getline(f, r.variant, '\t');
    std::getline(f, r.answer, '\t');
    std::getline(f, kind, '\t');
    // Benchmark rows (Solnon's families, bench/peers/vs_glasgow_sip.py): some take the search minutes.
    if (kind.rfind("bench:", 0) == 0) continue;
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

class SipAnswers : public ::testing::TestWithParam<Row> {};

TEST_P(SipAnswers, MatchesTheRecordedAnswer) {
  const Row& row = GetParam();
  const std::string dir = std::string(JACKDAW_INSTANCES) + "/sip/";
  const auto s = sip::makeSpace(sip::readGraph(dir + row.pattern), sip::readGraph(dir + row.target),
                                row.variant == "induced");
  std::smatch m;
  const bool unsat = row.answer.find("UNSAT") != std::string::npos;
  if (std::regex_search(row.answer, m, std::regex("solution_count=([0-9]+)"))) {
    EXPECT_EQ(count(s), std::stoull(m[1]));
    EXPECT_EQ(decide(s), std::stoull(m[1]) > 0);
  } else {
    EXPECT_EQ(decide(s), !unsat);
    if (unsat) {
      EXPECT_EQ(count(s), 0u);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AnswersTsv, SipAnswers, ::testing::ValuesIn(answerRows()), [](const auto& info) {
  std::string n = info.param.pattern + "_" + info.param.variant;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n + "_" + std::to_string(info.index);
});

TEST(SipAnswersFile, HasAllRows) { EXPECT_EQ(answerRows().size(), 24u); }

// Loop rules (ANSWERS.tsv header): a looped pattern vertex needs a looped target vertex; induced,
// an unlooped pattern vertex may not use a looped target vertex.
TEST(SipLoops, LoopedPatternVertexNeedsLoopedTarget) {
  EXPECT_FALSE(decide(spaceOf("a,a\n", "x,y\n", false)));
  EXPECT_TRUE(decide(spaceOf("a,a\n", "x,y\ny,y\n", false)));
  EXPECT_EQ(count(spaceOf("a,a\n", "x,y\ny,y\n", false)), 1u);
}

TEST(SipLoops, InducedKeepsUnloopedOffLoops) {
  EXPECT_EQ(count(spaceOf("a,b\n", "x,x\nx,y\n", false)), 2u);  // a->x b->y and a->y b->x
  EXPECT_EQ(count(spaceOf("a,b\n", "x,x\nx,y\n", true)), 0u);   // only y is unlooped
}

// Embedding counts by hand: K3 into K4 = 4*3*2; a path a-b-c into K3 = 6; K3 into C4 = 0;
// two isolated vertices into three = 3*2 (non-induced), induced into a triangle = 0.
TEST(SipCounts, SmallGraphs) {
  const std::string k4 = "1,2\n1,3\n1,4\n2,3\n2,4\n3,4\n";
  EXPECT_EQ(count(spaceOf("a,b\nb,c\na,c\n", k4, false)), 24u);
  EXPECT_EQ(count(spaceOf("a,b\nb,c\n", "1,2\n2,3\n1,3\n", false)), 6u);
  EXPECT_EQ(count(spaceOf("a,b\nb,c\n", "1,2\n2,3\n1,3\n", true)), 0u);
  EXPECT_EQ(count(spaceOf("a,b\nb,c\na,c\n", "1,2\n2,3\n3,4\n4,1\n", false)), 0u);
  EXPECT_EQ(count(spaceOf("a,\nb,\n", "1,\n2,\n3,\n", false)), 6u);
  EXPECT_EQ(count(spaceOf("a,\nb,\n", "1,2\n2,3\n1,3\n", true)), 0u);
  EXPECT_FALSE(decide(spaceOf("a,b\nb,c\na,c\n", "1,2\n2,3\n3,4\n4,1\n", false)));
}

// ---- The filtering pieces (include/jackdaw/sip/model.hpp), each on a case where it can fail. ----

namespace {

sip::Graph graphOf(int n, const std::vector<std::pair<int, int>>& edges) {
  sip::Graph g;
  g.n = n;
  g.words = (n + 63) / 64;
  g.adj.assign(static_cast<std::size_t>(n) * g.words, 0);
  g.degree.assign(n, 0);
  for (int v = 0; v < n; ++v) g.names.push_back(std::to_string(v));
  for (auto [a, b] : edges) {
    if (g.adjacent(a, b)) continue;
    g.adj[static_cast<std::size_t>(a) * g.words + (b >> 6)] |= std::uint64_t{1} << (b & 63);
    g.adj[static_cast<std::size_t>(b) * g.words + (a >> 6)] |= std::uint64_t{1} << (a & 63);
    if (a != b) ++g.degree[a], ++g.degree[b];
  }
  return g;
}

int vertexNamed(const sip::Graph& g, const std::string& name) {
  for (int v = 0; v < g.n; ++v)
    if (g.names[v] == name) return v;
  return -1;
}

bool inRootDomain(const sip::Space& s, int p, int t) {
  return (s.rootDomains[static_cast<std::size_t>(p) * s.target.words + (t >> 6)] >> (t & 63)) & 1;
}

// Embeddings counted by trying every injective map.
std::uint64_t bruteCount(const sip::Graph& p, const sip::Graph& t, bool induced) {
  std::vector<int> img(p.n, -1);
  std::vector<char> used(t.n, 0);
  std::uint64_t c = 0;
  std::function<void(int)> go = [&](int i) {
    if (i == p.n) {
      ++c;
      return;
    }
    for (int v = 0; v < t.n; ++v) {
      if (used[v]) continue;
      bool ok = true;
      for (int j = 0; j <= i && ok; ++j) {
        const int w = j == i ? v : img[j];
        const bool pe = p.adjacent(i, j), te = t.adjacent(v, w);
        ok = (!pe || te) && (!induced || !te || pe);
      }
      if (!ok) continue;
      used[v] = 1, img[i] = v;
      go(i + 1);
      used[v] = 0, img[i] = -1;
    }
  };
  go(0);
  return c;
}

}  // namespace

// NDS: a's neighbours have degrees (2, 2); x has a's degree but neighbour degrees (3, 1).
TEST(SipFiltering, NeighbourhoodDegreeSequenceRemovesAValue) {
  const std::string pattern = "a,b\na,c\nb,d\nc,e\n";
  const std::string target = "x,y\nx,z\ny,w\nw,v\nv,u\nu,y\n";
  sip::Options o;
  o.pathGraphs = 0;
  o.rootArcConsistency = false;
  for (bool nds : {false, true}) {
    o.nds = nds;
    const auto s = sip::makeSpace(sip::readGraph(writeTemp("p.csv", pattern)), sip::readGraph(writeTemp("t.csv", target)),
                                  false, o);
    const int a = vertexNamed(s.pattern, "a"), x = vertexNamed(s.target, "x");
    ASSERT_GE(a, 0);
    ASSERT_GE(x, 0);
    EXPECT_EQ(s.pattern.degree[a], s.target.degree[x]);
    EXPECT_EQ(inRootDomain(s, a, x), !nds) << "nds " << nds;
  }
}

// Path graphs of C4 a-b-c-d: a and c share two neighbours (graphs 1 and 2), a and b none.
TEST(SipFiltering, PathGraphsCountCommonNeighbours) {
  sip::Options o;
  o.pathGraphs = 3;
  const auto s = sip::makeSpace(graphOf(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}), graphOf(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}),
                                false, o);
  EXPECT_EQ(s.graphs, 4);
  EXPECT_EQ(s.adjMask(0, 2), 0b0110);
  EXPECT_EQ(s.adjMask(0, 1), 0b0001);
  EXPECT_EQ(count(s), 8u);
}

// A pattern C4 into a C5: the C4's opposite corners need two common neighbours,
// which graph 2 of the target has nowhere; the root domains are empty without search.
TEST(SipFiltering, PathGraphsRefuteAtTheRoot) {
  const auto c4 = graphOf(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  // Target: triangle-free, every vertex of degree >= 2, no 4-cycle: a 5-cycle.
  const auto c5 = graphOf(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}});
  sip::Options o;
  o.rootArcConsistency = false;
  o.pathGraphs = 0;
  EXPECT_FALSE(sip::rootNode(sip::makeSpace(c4, c5, false, o)).dead);
  o.pathGraphs = 2;
  EXPECT_TRUE(sip::rootNode(sip::makeSpace(c4, c5, false, o)).dead);
  EXPECT_EQ(count(sip::makeSpace(c4, c5, false, o)), 0u);
}

// Hall set: a and b (looped) can only take x and y (looped), so c must take z; with all-different
// reasoning the root assigns c, without it c keeps three values.
TEST(SipFiltering, HallSetAssignsTheRest) {
  const std::string pattern = "a,a\nb,b\nc,\n";
  const std::string target = "x,x\ny,y\nz,\n";
  for (bool hall : {false, true}) {
    sip::Options o;
    o.allDifferent = hall;
    const auto s = sip::makeSpace(sip::readGraph(writeTemp("p.csv", pattern)), sip::readGraph(writeTemp("t.csv", target)),
                                  false, o);
    const auto root = sip::rootNode(s);
    ASSERT_FALSE(root.dead);
    const int c = vertexNamed(s.pattern, "c"), z = vertexNamed(s.target, "z");
    EXPECT_EQ(root.image[c], hall ? z : -1);
    EXPECT_EQ(count(s), 2u);
  }
}

// Hall failure: three looped pattern vertices, two looped target vertices among many.
TEST(SipFiltering, HallSetFailure) {
  auto s = spaceOf("a,a\nb,b\nc,c\na,b\n", "x,x\ny,y\nz,\nw,\nx,z\nz,w\n", false);
  EXPECT_TRUE(sip::rootNode(s).dead);
  EXPECT_EQ(count(s), 0u);
}

// Random small graphs (some loops): the count equals brute force's under every combination of the
// filtering switches and both value orders, induced and not; the decision agrees.
TEST(SipFiltering, RandomGraphsAgainstBruteForce) {
  std::mt19937 rng(52);
  int checked = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const int np = 1 + static_cast<int>(rng() % 5), nt = np + static_cast<int>(rng() % 4);
    const double pp = 0.2 + 0.6 * (rng() % 100) / 100.0, pt = 0.2 + 0.7 * (rng() % 100) / 100.0;
    auto randomGraph = [&](int n, double prob) {
      std::vector<std::pair<int, int>> e;
      for (int a = 0; a < n; ++a)
        for (int b = a; b < n; ++b)
          if ((rng() % 1000) < (a == b ? 100 : prob * 1000)) e.emplace_back(a, b);
      return graphOf(n, e);
    };
    const auto p = randomGraph(np, pp), t = randomGraph(nt, pt);
    for (bool induced : {false, true}) {
      const std::uint64_t want = bruteCount(p, t, induced);
      for (int combo = 0; combo < 16; ++combo) {
        sip::Options o;
        o.pathGraphs = (combo & 1) ? 4 : (combo & 8 ? 1 : 0);
        o.nds = combo & 2;
        o.allDifferent = combo & 4;
        o.rootArcConsistency = combo & 8;
        o.valueOrder = (combo & 3) == 1 ? sip::ValueOrder::AntiDegree : sip::ValueOrder::Degree;
        const auto s = sip::makeSpace(p, t, induced, o);
        EXPECT_EQ(count(s), want) << "trial " << trial << " combo " << combo << " induced " << induced;
        EXPECT_EQ(decide(s), want > 0) << "trial " << trial << " combo " << combo << " induced " << induced;
        // The probe: an unbounded one decides as the search does; whatever it finds is an embedding.
        const auto pr = sip::probe(s, o.valueOrder, std::uint64_t{1} << 40);
        EXPECT_EQ(pr.image.has_value(), want > 0) << "trial " << trial << " combo " << combo;
        if (pr.image) {
          EXPECT_TRUE(sip::isEmbedding(s, *pr.image)) << "trial " << trial << " combo " << combo;
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 120 * 2 * 16);
}

// The parallel skeleton counts what seq counts (a Glasgow test pair and a random pair).
TEST(SipFiltering, BudgetSkeletonCounts) {
  const std::string dir = std::string(JACKDAW_INSTANCES) + "/sip/glasgow/";
  const auto s = sip::makeSpace(sip::readGraph(dir + "trident.csv"), sip::readGraph(dir + "longtrident.csv"), false);
  jackdaw::budget::Options o;
  o.runtime.threads = 2;
  o.budget = 2;
  auto r = jackdaw::budget::search<sip::SipModel, jackdaw::Enumeration<sip::CountSolutions>>(s, sip::rootNode(s), {}, o);
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.enumerator.get(), 12u);
}

// The probe keeps to its budget, counts nodes as the search does, and is the search's answer on
// every recorded SAT case it finishes; on the case it exists for it finds what the descending
// order finds (si2_r001_m200.09 induced: 528 nodes against the ascending order's 27,309).
TEST(SipProbe, KeepsToItsBudget) {
  const std::string dir = std::string(JACKDAW_INSTANCES) + "/sip/si2_rand_r001_200/si2_r001_m200.09/";
  const auto s = sip::makeSpace(sip::readGraph(dir + "pattern"), sip::readGraph(dir + "target"), true);
  for (std::uint64_t budget : {0u, 1u, 10u, 527u}) {
    const auto pr = sip::probe(s, sip::ValueOrder::Degree, budget);
    EXPECT_FALSE(pr.image) << budget;
    EXPECT_EQ(pr.nodes, budget);
  }
  const auto pr = sip::probe(s, sip::ValueOrder::Degree, 528);
  ASSERT_TRUE(pr.image);
  EXPECT_TRUE(sip::isEmbedding(s, *pr.image));
  EXPECT_EQ(pr.nodes, 528u);
  // The same count as the complete search in that order.
  auto o = s.opts;
  o.valueOrder = sip::ValueOrder::Degree;
  const auto sd = sip::makeSpace(sip::readGraph(dir + "pattern"), sip::readGraph(dir + "target"), true, o);
  jackdaw::SearchParams<int> params;
  params.expectedObjective = sd.pattern.n;
  auto r = jackdaw::seq::search<sip::SipModel, jackdaw::Decision>(sd, sip::rootNode(sd), params);
  ASSERT_TRUE(r.best);
  EXPECT_EQ(r.stats.nodes, pr.nodes);
}

TEST(SipProbe, NeverFindsWhatIsNotThere) {
  const std::string dir = std::string(JACKDAW_INSTANCES) + "/sip/";
  for (const Row& row : answerRows()) {
    const auto s = sip::makeSpace(sip::readGraph(dir + row.pattern), sip::readGraph(dir + row.target),
                                  row.variant == "induced");
    const bool sat = row.answer.find("UNSAT") == std::string::npos &&
                     row.answer.find("solution_count=0") == std::string::npos;
    for (auto order : {sip::ValueOrder::Degree, sip::ValueOrder::AntiDegree}) {
      const auto pr = sip::probe(s, order, 100000);
      if (pr.image) {
        EXPECT_TRUE(sat) << row.pattern;
        EXPECT_TRUE(sip::isEmbedding(s, *pr.image)) << row.pattern;
      } else if (pr.nodes < 100000) {
        EXPECT_FALSE(sat) << row.pattern << ": the probe ended within its budget without the embedding";
      }
    }
  }
}

