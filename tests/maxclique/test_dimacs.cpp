// DIMACS reader: good files parse, each kind of bad file gives its own message with file:line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/maxclique/dimacs.hpp"

using jackdaw::InputError;
using jackdaw::maxclique::readDimacs;

namespace {

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "message '" << text << "' lacks '" << part << "'";
}

// Files go in a per-process temporary folder, removed at the end.
class Dimacs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("jackdaw-dimacs-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const auto p = (dir_ / name).string();
    std::ofstream(p) << text;
    return p;
  }

  // The message readDimacs throws for this file content.
  std::string errorFor(const std::string& name, const std::string& text) {
    const auto p = write(name, text);
    try {
      readDimacs(p);
    } catch (const InputError& e) {
      return e.what();
    }
    ADD_FAILURE() << name << " was accepted";
    return {};
  }

  std::filesystem::path dir_;
};

}  // namespace

TEST_F(Dimacs, ReadsCommentsEdgesAndDuplicates) {
  const auto p = write("good.clq",
                       "c a triangle plus a pendant vertex\n"
                       "c\n"
                       "p edge 4 5\n"
                       "e 1 2\n"
                       "e 2 3\n"
                       "\n"
                       "e\t3   1\n"
                       "e 2 1\n"  // duplicate in the other direction
                       "e 4 3\n");
  const auto g = readDimacs(p);
  EXPECT_EQ(g.n, 4);
  EXPECT_EQ(g.declaredEdges, 5u);
  EXPECT_EQ(g.edges, (std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 2}, {2, 3}}));
  EXPECT_FALSE(g.declaredEdgesMatch());
  EXPECT_EQ(g.source, p);
}

TEST_F(Dimacs, AcceptsColHeader) {
  const auto g = readDimacs(write("col.clq", "p col 3 1\ne 1 3\n"));
  EXPECT_EQ(g.n, 3);
  EXPECT_EQ(g.edges, (std::vector<std::pair<int, int>>{{0, 2}}));
  EXPECT_TRUE(g.declaredEdgesMatch());
}

TEST_F(Dimacs, AcceptsWrongEdgeCountOfDSJC500_5) {
  // Its header states 125248 edges; it lists 62624 (instances/dimacs/ANSWERS.tsv).
  const auto g = readDimacs(std::string(JACKDAW_INSTANCES) + "/dimacs/DSJC500_5.clq");
  EXPECT_EQ(g.n, 500);
  EXPECT_EQ(g.declaredEdges, 125248u);
  EXPECT_EQ(g.edges.size(), 62624u);
}

TEST_F(Dimacs, ToleratesPaddedHeader) {
  // p_hat300-1.clq's header is "p edge  300     10933<TAB>".
  const auto g = readDimacs(std::string(JACKDAW_INSTANCES) + "/dimacs/p_hat300-1.clq");
  EXPECT_EQ(g.n, 300);
  EXPECT_EQ(g.edges.size(), 10933u);
}

TEST_F(Dimacs, MissingFile) {
  const auto p = (dir_ / "nope.clq").string();
  try {
    readDimacs(p);
    FAIL() << "missing file accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "cannot open DIMACS file '" + p + "'"));
  }
}

TEST_F(Dimacs, MissingPLine) {
  EXPECT_TRUE(contains(errorFor("nop.clq", "c nothing here\n"), "nop.clq: missing 'p edge N M' line"));
}

TEST_F(Dimacs, EdgeBeforePLine) {
  EXPECT_TRUE(contains(errorFor("early.clq", "c x\ne 1 2\np edge 2 1\n"), "early.clq:2: edge before the 'p' line"));
}

TEST_F(Dimacs, RepeatedPLine) {
  EXPECT_TRUE(contains(errorFor("twice.clq", "p edge 3 1\ne 1 2\np edge 3 1\n"),
                       "twice.clq:3: repeated 'p' line (the first is on line 1)"));
}

TEST_F(Dimacs, MalformedPLine) {
  EXPECT_TRUE(contains(errorFor("p3.clq", "p edge 3\n"), "p3.clq:1: malformed 'p' line"));
  EXPECT_TRUE(contains(errorFor("pfmt.clq", "p clq 3 1\n"), "pfmt.clq:1: unknown format 'clq'"));
  EXPECT_TRUE(contains(errorFor("pn.clq", "c\np edge three 1\n"), "pn.clq:2: bad vertex count 'three'"));
  EXPECT_TRUE(contains(errorFor("pm.clq", "p edge 3 -1\n"), "pm.clq:1: bad edge count '-1'"));
}

TEST_F(Dimacs, MalformedEdgeLine) {
  EXPECT_TRUE(contains(errorFor("e2.clq", "p edge 3 1\ne 1\n"), "e2.clq:2: malformed edge line, expected 'e u v'"));
  EXPECT_TRUE(contains(errorFor("e4.clq", "p edge 3 1\ne 1 2 3\n"), "e4.clq:2: malformed edge line"));
  EXPECT_TRUE(contains(errorFor("ex.clq", "p edge 3 1\ne 1 2x\n"),
                       "ex.clq:2: malformed edge line, vertices must be integers"));
}

TEST_F(Dimacs, VertexOutOfRange) {
  EXPECT_TRUE(contains(errorFor("big.clq", "p edge 5 1\ne 1 6\n"), "big.clq:2: vertex out of range in edge 1 6"));
  EXPECT_TRUE(contains(errorFor("zero.clq", "p edge 5 1\n\ne 0 2\n"), "zero.clq:3: vertex out of range in edge 0 2"));
}

TEST_F(Dimacs, SelfLoop) {
  EXPECT_TRUE(contains(errorFor("loop.clq", "p edge 5 1\ne 3 3\n"), "loop.clq:2: self-loop on vertex 3"));
}

TEST_F(Dimacs, UnknownLineType) {
  EXPECT_TRUE(contains(errorFor("n.clq", "p edge 5 0\nn 1 7\n"), "n.clq:2: unknown line type 'n'"));
  // A comment must be the token "c": "comment" is not one.
  EXPECT_TRUE(contains(errorFor("cc.clq", "comment\np edge 5 0\n"), "cc.clq:1: unknown line type 'comment'"));
}

// The adjacency matrix a graph needs (n^2 bits) is checked at the 'p' line, before an edge is read.
TEST_F(Dimacs, VertexCountBeyondTheMemoryLimit) {
  const auto p = write("huge.clq", "c big\np edge 2000000000 1\ne 1 2\n");
  try {
    readDimacs(p, 1 << 30);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "huge.clq:2: the adjacency matrix of 2000000000 vertices would take about"));
    EXPECT_TRUE(contains(e.what(), "more than the memory limit of 1.0 GiB"));
  }
}

// A line of a million characters is quoted in 80 (and the rest left out).
TEST_F(Dimacs, LongTokenQuotedInPart) {
  const std::string m = errorFor("long.clq", "p edge 3 1\n" + std::string(1'000'000, 'q') + "\n");
  EXPECT_TRUE(contains(m, "long.clq:2: unknown line type '" + std::string(80, 'q') + "...'"));
  EXPECT_LT(m.size(), 300u);
}

TEST(DimacsInstances, EveryShippedGraphMatchesItsRowInAnswersTsv) {
  // instances/dimacs/ANSWERS.tsv lists every graph shipped (vertices, edges as listed in the file).
  const std::filesystem::path dir = std::filesystem::path(JACKDAW_INSTANCES) / "dimacs";
  std::map<std::string, std::pair<int, std::size_t>> rows;
  std::ifstream answers(dir / "ANSWERS.tsv");
  ASSERT_TRUE(answers) << "no ANSWERS.tsv";
  for (std::string line; std::getline(answers, line);) {
    std::istringstream f(line);
    std::string name;
    int n = 0;
    std::size_t m = 0;
    if (line.empty() || line[0] == '#' || !(f >> name >> n >> m)) continue;
    rows[name] = {n, m};
  }
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".clq") continue;
    ++files;
    const std::string name = entry.path().stem().string();
    const auto row = rows.find(name);
    ASSERT_NE(row, rows.end()) << name << ".clq is not in ANSWERS.tsv";
    const auto g = readDimacs(entry.path().string());
    EXPECT_EQ(g.n, row->second.first) << name;
    EXPECT_EQ(g.edges.size(), row->second.second) << name;
  }
  EXPECT_GE(files, 34);  // the 34 graphs shipped when this test was written
}
