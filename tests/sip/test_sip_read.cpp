// LAD and CSV readers: undirected edges, loops, isolated vertices, errors naming file:line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/sip/graph.hpp"

namespace sip = jackdaw::sip;

namespace {
// Named per process: CTest runs several tests at once.
std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + std::to_string(::getpid()) + "-" + name;
  std::ofstream(path) << text;
  return path;
}
}  // namespace

TEST(SipRead, LadIsUndirectedAndKeepsLoops) {
  // Vertex 0 lists itself (a loop) and 1; vertex 2 lists 1 only on its own line.
  const auto g = sip::readGraph(writeTemp("g.lad", "3\n2 0 1\n0\n1 1\n"));
  ASSERT_EQ(g.n, 3);
  EXPECT_TRUE(g.loop(0));
  EXPECT_FALSE(g.loop(1));
  EXPECT_TRUE(g.adjacent(1, 0));
  EXPECT_TRUE(g.adjacent(1, 2));
  EXPECT_FALSE(g.adjacent(0, 2));
  EXPECT_EQ(g.degree[0], 1);  // the loop is not a neighbour
  EXPECT_EQ(g.degree[1], 2);
}

TEST(SipRead, CsvNamesIsolatedVerticesAndLoops) {
  const auto g = sip::readGraph(writeTemp("g.csv", "a,b\nc,\nb,b\n"));
  ASSERT_EQ(g.n, 3);
  EXPECT_EQ(g.names, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(g.adjacent(0, 1));
  EXPECT_EQ(g.degree[2], 0);
  EXPECT_TRUE(g.loop(1));
  EXPECT_FALSE(g.loop(0));
}

TEST(SipRead, GlasgowInstances) {
  const std::string dir = std::string(JACKDAW_INSTANCES) + "/sip/glasgow/";
  const auto small = sip::readGraph(dir + "small");
  EXPECT_EQ(small.n, 4);
  EXPECT_TRUE(small.loop(0));  // "3 0 1 2": vertex 0 lists itself
  const auto c3c2 = sip::readGraph(dir + "c3c2.csv");
  EXPECT_TRUE(c3c2.loop(static_cast<int>(std::find(c3c2.names.begin(), c3c2.names.end(), "ABC") - c3c2.names.begin())));
}

TEST(SipRead, ErrorsNameFileAndLine) {
  auto expectError = [](const std::string& path, const std::string& where) {
    try {
      sip::readGraph(path);
      FAIL() << path << " accepted";
    } catch (const jackdaw::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
    }
  };
  expectError(writeTemp("e1.lad", "x\n"), "e1.lad:1:");
  expectError(writeTemp("e2.lad", "2\n1 1\n1 5\n"), "e2.lad:3:");
  expectError(writeTemp("e3.lad", "1\n0\n7\n"), "e3.lad:3:");
  expectError(writeTemp("e4.csv", "a,b\n,c\n"), "e4.csv:2:");
  expectError(writeTemp("e5.csv", "a,b,c\n"), "e5.csv:1:");
}

// The n^2-bit matrix is checked against the memory limit before it is allocated: a LAD file saying
// 2000000 vertices must be refused with a message, not end in std::bad_alloc; a CSV file is
// checked as its names appear.
TEST(SipRead, MemoryLimitBeforeAllocation) {
  auto expectError = [](const std::string& path, const std::string& where) {
    try {
      sip::readGraph(path, sip::Format::Auto, 1 << 20);
      FAIL() << path << " accepted";
    } catch (const jackdaw::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
    }
  };
  expectError(writeTemp("m1.lad", "2000000\n"), "m1.lad:1: a graph of 2000000 vertices would take about 465.7 GiB");
  std::string csv;
  for (int i = 0; i < 3000; ++i) csv += "v" + std::to_string(i) + ",\n";
  expectError(writeTemp("m2.csv", csv), "m2.csv:");
  expectError(writeTemp("m3.lad", "4194305\n"), "m3.lad:1: expected the vertex count (0..4194304)");
}
