// Subgraph isomorphism: the test rows of instances/sip/ANSWERS.tsv, the loop rules, small known counts.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "jackdaw/sip/model.hpp"
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
