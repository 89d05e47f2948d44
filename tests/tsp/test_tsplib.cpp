// TSPLIB reader and distance functions, checked against the lengths of TSPLIB's optimal tours.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/tsp/instance.hpp"
#include "jackdaw/tsp/tsplib.hpp"

namespace tsp = jackdaw::tsp;

namespace {
std::string inst(const std::string& name) { return std::string(JACKDAW_INSTANCES) + "/tsp/" + name; }

long long optTourLength(const std::string& name) {
  const auto i = tsp::readTsplib(inst(name + ".tsp"));
  return i.tourLength(tsp::readTour(inst(name + ".opt.tour"), i.n));
}

// Named per process: CTest runs several tests at once.
std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + std::to_string(::getpid()) + "-" + name;
  std::ofstream(path) << text;
  return path;
}
}  // namespace

// Optimal lengths published with TSPLIB95 (instances/tsp/ANSWERS.tsv): GEO and EUC_2D rules.
TEST(TsplibTour, OptimalToursHaveThePublishedLengths) {
  EXPECT_EQ(optTourLength("ulysses16"), 6859);
  EXPECT_EQ(optTourLength("ulysses22"), 7013);
  EXPECT_EQ(optTourLength("berlin52"), 7542);
  EXPECT_EQ(optTourLength("eil51"), 426);
  EXPECT_EQ(optTourLength("st70"), 675);
  EXPECT_EQ(optTourLength("kroA100"), 21282);
}

TEST(TsplibDistance, RoundingRules) {
  EXPECT_EQ(tsp::distEuc2d(0, 0, 3, 4), 5);
  EXPECT_EQ(tsp::distEuc2d(0, 0, 1, 1), 1);   // nint(1.414)
  EXPECT_EQ(tsp::distEuc2d(0, 0, 1.5, 0), 2); // nint(1.5) rounds up
  EXPECT_EQ(tsp::distCeil2d(0, 0, 1, 1), 2);
  EXPECT_EQ(tsp::distCeil2d(0, 0, 3, 4), 5);
  EXPECT_EQ(tsp::distAtt(0, 0, 10, 0), 4);    // r = sqrt(10) = 3.16, nint 3 < r -> 4
  EXPECT_EQ(tsp::distAtt(0, 0, 0, 0), 0);
  EXPECT_EQ(tsp::distGeo(0, 0, 0, 1), 112);  // one degree of longitude on the equator: (int)(111.32 + 1)
}

TEST(TsplibReader, ExplicitFormatsGiveTheSameMatrix) {
  // Symmetric 4x4: d(1,2)=1 d(1,3)=2 d(1,4)=3 d(2,3)=4 d(2,4)=5 d(3,4)=6.
  const std::string head = "NAME: t\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: ";
  const std::vector<std::pair<std::string, std::string>> forms = {
      {"FULL_MATRIX", "0 1 2 3\n1 0 4 5\n2 4 0 6\n3 5 6 0"},
      {"UPPER_ROW", "1 2 3\n4 5\n6"},
      {"LOWER_ROW", "1\n2 4\n3 5 6"},
      {"UPPER_DIAG_ROW", "0 1 2 3 0 4 5 0 6 0"},
      {"LOWER_DIAG_ROW", "0\n1 0\n2 4 0\n3 5 6 0"},
      {"UPPER_COL", "1\n2 4\n3 5 6"},
      {"LOWER_DIAG_COL", "0 1 2 3 0 4 5 0 6 0"}};
  for (const auto& [format, body] : forms) {
    const auto path = writeTemp("tsp_" + format + ".tsp", head + format + "\nEDGE_WEIGHT_SECTION\n" + body + "\nEOF\n");
    const auto i = tsp::readTsplib(path);
    ASSERT_EQ(i.n, 4) << format;
    EXPECT_EQ(i.d(0, 1), 1) << format;
    EXPECT_EQ(i.d(3, 0), 3) << format;
    EXPECT_EQ(i.d(1, 2), 4) << format;
    EXPECT_EQ(i.d(2, 3), 6) << format;
    EXPECT_EQ(i.d(3, 2), 6) << format;
  }
}

TEST(TsplibReader, SpacedColonsAndDisplayData) {
  const auto i = tsp::readTsplib(inst("dantzig42.tsp"));  // "KEY : value", DISPLAY_DATA_SECTION
  EXPECT_EQ(i.n, 42);
  EXPECT_EQ(i.name, "dantzig42");
  EXPECT_EQ(i.d(0, 1), 8);  // first numbers of its LOWER_DIAG_ROW: 0 / 8 0 / 39 45 0
  EXPECT_EQ(i.d(2, 0), 39);
  EXPECT_EQ(i.d(2, 1), 45);
}

TEST(TsplibReader, AsymmetricFullMatrixIsRejectedWithItsLine) {
  const auto path = writeTemp("tsp_asym.tsp",
                              "TYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\n"
                              "EDGE_WEIGHT_SECTION\n0 1 2\n1 0 3\n2 4 0\nEOF\n");
  try {
    tsp::readTsplib(path);
    FAIL() << "accepted an asymmetric matrix";
  } catch (const jackdaw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tsp_asym.tsp:8:"), std::string::npos) << e.what();
  }
}

TEST(TsplibReader, BadTourIsRejected) {
  const auto path = writeTemp("tsp_dup.tour", "TYPE: TOUR\nTOUR_SECTION\n1 2 2\n-1\nEOF\n");
  EXPECT_THROW(tsp::readTour(path, 3), jackdaw::InputError);
}

// Distances are computed in double and range-checked before they become ints: 3e9 apart overflowed
// an int (the tour of four such cities printed as optimal with length -8589934592).
TEST(TsplibDistance, BeyondTheWeightRangeIsRefused) {
  EXPECT_EQ(tsp::distEuc2d(0, 0, tsp::kMaxWeight, 0), tsp::kMaxWeight);
  EXPECT_THROW(tsp::distEuc2d(0, 0, 3e9, 0), jackdaw::InputError);
  EXPECT_THROW(tsp::distCeil2d(-1e308, 0, 1e308, 0), jackdaw::InputError);  // the difference is inf
  EXPECT_THROW(tsp::distAtt(0, 0, 1e10, 1e10), jackdaw::InputError);
  // GEO distances stay on the earth (at most half its circumference) whatever the coordinates.
  EXPECT_LE(tsp::distGeo(1e300, 0, -1e300, 5), 20038);
}

TEST(TsplibReader, DimensionBeyondTheMemoryLimit) {
  const auto path = writeTemp("tsp_mem.tsp", "NAME: x\nTYPE: TSP\nDIMENSION: 20000\nEDGE_WEIGHT_TYPE: EUC_2D\nEOF\n");
  try {
    tsp::readTsplib(path, 1 << 30);
    FAIL() << "accepted";
  } catch (const jackdaw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tsp_mem.tsp:3: the distance matrices of 20000 cities would take about 7.5 GiB"),
              std::string::npos)
        << e.what();
  }
}

// A keyword given twice could size the coordinates for one DIMENSION and the matrix for another.
TEST(TsplibReader, RepeatedSectionsAreRefused) {
  const auto path = writeTemp("tsp_twice.tsp", "TYPE: TSP\nDIMENSION: 2\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n"
                                               "1 0 0\n2 3 4\nDIMENSION: 3\nEOF\n");
  try {
    tsp::readTsplib(path);
    FAIL() << "accepted";
  } catch (const jackdaw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tsp_twice.tsp:7: DIMENSION given twice"), std::string::npos) << e.what();
  }
}
