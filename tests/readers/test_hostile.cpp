// Hostile inputs that every instance reader must refuse with one clear InputError naming the file:
// a FIFO (opening one blocks until a writer comes), a line of a million characters (the message
// quotes a bounded excerpt of it), a UTF-8 byte-order mark (the message says so in visible text),
// and the numeric limits of the TSP reader (distances that would overflow the weight type).
// Each reader call runs under a deadline: a reader that blocks fails the test instead of hanging it.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "deadline.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/knapsack/reader.hpp"
#include "jackdaw/maxclique/dimacs.hpp"
#include "jackdaw/sip/graph.hpp"
#include "jackdaw/tsp/tsplib.hpp"

namespace fs = std::filesystem;
using namespace jackdaw;

namespace {

using jackdaw::test::withDeadline;

struct Reader {
  std::string name;
  std::string suffix;                                 // the file name's ending (some readers look at it)
  std::string validStart;                             // a valid file's first lines, before a broken one
  std::function<void(const std::string& path)> read;  // throws InputError, or returns an instance
};

std::vector<Reader> readers() {
  return {
      {"DIMACS", ".clq", "c x\np edge 3 1\n", [](const std::string& p) { maxclique::readDimacs(p); }},
      {"TSPLIB", ".tsp", "NAME: x\nTYPE: TSP\nDIMENSION: 3\n", [](const std::string& p) { tsp::readTsplib(p); }},
      {"TSPLIB tour", ".tour", "NAME: x\nTYPE: TOUR\nDIMENSION: 3\n", [](const std::string& p) { tsp::readTour(p, 3); }},
      {"knapsack yewpar", ".kp", "10\n5\n", [](const std::string& p) { knapsack::readInstance(p, knapsack::Format::YewPar); }},
      {"knapsack kp01", "", "2 10\n", [](const std::string& p) { knapsack::readInstance(p, knapsack::Format::Kp01); }},
      {"knapsack pisinger", ".csv", "inst\n",
       [](const std::string& p) { knapsack::readInstance(p, knapsack::Format::Pisinger); }},
      {"knapsack auto-detected", "", "", [](const std::string& p) { knapsack::readInstance(p); }},
      {"SIP LAD", "", "3\n", [](const std::string& p) { sip::readGraph(p, sip::Format::Lad); }},
      {"SIP CSV", ".csv", "a,b\n", [](const std::string& p) { sip::readGraph(p, sip::Format::Csv); }},
  };
}


// The InputError message `read(path)` throws, or a description of what happened instead.
std::string refusal(const Reader& r, const std::string& path, bool* wasInputError) {
  std::string message;
  *wasInputError = false;
  withDeadline(r.name + " on " + path, 20, [&] {
    try {
      r.read(path);
      message = "(read as an instance)";
    } catch (const InputError& e) {
      message = e.what();
      *wasInputError = true;
    } catch (const std::exception& e) {
      message = std::string("(not an InputError: ") + e.what() + ")";
    }
  });
  return message;
}

fs::path scratchDir(const std::string& tag) {
  const fs::path dir = fs::temp_directory_path() / ("jackdaw-hostile-" + tag + "-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

bool visibleAscii(const std::string& s) {
  for (unsigned char c : s)
    if (c < 0x20 || c > 0x7e) return false;
  return true;
}

}  // namespace

// Opening a FIFO for reading blocks until a writer opens it, so a reader that opened one would
// wait forever: every reader must refuse it before opening.
TEST(Hostile, FifoInputRefused) {
  const fs::path dir = scratchDir("fifo");
  for (const Reader& r : readers()) {
    const std::string path = (dir / ("fifo" + r.suffix)).string();
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << path;
    bool inputError = false;
    const std::string m = refusal(r, path, &inputError);
    EXPECT_TRUE(inputError) << r.name << ": " << m;
    EXPECT_NE(m.find(path), std::string::npos) << r.name << ": the message does not name the file: " << m;
    EXPECT_NE(m.find("not a regular file"), std::string::npos) << r.name << ": " << m;
    fs::remove(path);
  }
  fs::remove_all(dir);
}

// A parse error on a huge line printed the whole line (a 1 GB line: a 1 GB message).
TEST(Hostile, LongLineExcerpt) {
  const fs::path dir = scratchDir("long");
  const std::string junk(1'000'000, 'x');
  for (const Reader& r : readers()) {
    for (const std::string& line : {junk, "1 " + junk, junk + ",y,z"}) {
      const std::string path = (dir / ("long" + r.suffix)).string();
      std::ofstream(path, std::ios::binary | std::ios::trunc) << r.validStart << line << "\n";
      bool inputError = false;
      const std::string m = refusal(r, path, &inputError);
      EXPECT_TRUE(inputError) << r.name << ": " << m.substr(0, 300);
      EXPECT_NE(m.find(path), std::string::npos) << r.name << ": " << m.substr(0, 300);
      EXPECT_LE(m.size(), path.size() + 400) << r.name << ": a message of " << m.size() << " characters: "
                                             << m.substr(0, 300);
    }
  }
  fs::remove_all(dir);
}

// A file saved with a byte-order mark: the message must say so in visible text, not quote the
// invisible character.
TEST(Hostile, BomMessage) {
  const fs::path dir = scratchDir("bom");
  const std::string inst = JACKDAW_INSTANCES;
  const std::vector<std::string> seeds = {
      inst + "/dimacs/hamming6-4.clq",
      inst + "/tsp/burma14.tsp",
      "",  // a tour of 3 cities: below
      inst + "/knapsack/yewpar/knapsackTest1.kp",
      inst + "/knapsack/instances_01_KP/low-dimensional/f3_l-d_kp_4_20",
      "",  // Pisinger: a block of its own below
      inst + "/knapsack/instances_01_KP/low-dimensional/f4_l-d_kp_4_11",
      inst + "/sip/glasgow/small",
      inst + "/sip/glasgow/c3.csv",
  };
  const auto rs = readers();
  ASSERT_EQ(rs.size(), seeds.size());
  for (std::size_t i = 0; i < rs.size(); ++i) {
    std::string text;
    if (rs[i].name == "TSPLIB tour") {
      text = "NAME: x\nTYPE: TOUR\nDIMENSION: 3\nTOUR_SECTION\n1\n3\n2\n-1\nEOF\n";
    } else if (rs[i].name == "knapsack pisinger") {
      text = "inst\nn 1\nc 10\nz 5\ntime 0\n1,5,3,1\n-----\n";
    } else {
      std::ifstream in(seeds[i], std::ios::binary);
      ASSERT_TRUE(in) << seeds[i];
      text.assign(std::istreambuf_iterator<char>(in), {});
    }
    const std::string path = (dir / ("bom" + rs[i].suffix)).string();
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    bool inputError = false;
    ASSERT_NO_THROW(rs[i].read(path)) << rs[i].name << ": the seed without a mark must be read";
    std::ofstream(path, std::ios::binary | std::ios::trunc) << "\xEF\xBB\xBF" << text;
    const std::string m = refusal(rs[i], path, &inputError);
    EXPECT_TRUE(inputError) << rs[i].name << ": " << m;
    EXPECT_NE(m.find("byte-order mark (EF BB BF)"), std::string::npos) << rs[i].name << ": " << m;
    EXPECT_TRUE(visibleAscii(m)) << rs[i].name << ": the message holds invisible bytes: " << m;
  }
  fs::remove_all(dir);
}

// Coordinates whose distances do not fit the weight range (2^29 - 1, so that sums of two weights
// fit an int) are refused for every distance function, instead of overflowing (3e9 apart gave a
// tour of length -8589934592, printed as optimal).
TEST(Hostile, TspCoordinateLimits) {
  const fs::path dir = scratchDir("tspcoord");
  for (const std::string type : {"EUC_2D", "CEIL_2D", "ATT", "GEO"}) {
    for (const std::string big : {"3e9", "1e300", "1.7e308", "2147483648"}) {
      const std::string path = (dir / "c.tsp").string();
      std::ofstream(path, std::ios::trunc) << "NAME: x\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: " << type
                                           << "\nNODE_COORD_SECTION\n1 " << big << " 0\n2 -" << big
                                           << " 0\n3 0 1\nEOF\n";
      try {
        const auto inst = tsp::readTsplib(path);
        // GEO distances are bounded by the earth's circumference whatever the coordinates.
        for (int a = 0; a < inst.n; ++a)
          for (int b = 0; b < inst.n; ++b)
            EXPECT_TRUE(inst.d(a, b) >= 0 && inst.d(a, b) <= 536870911) << type << " " << big;
        EXPECT_EQ(type, "GEO") << big << ": read, though its distances exceed the weight range";
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("distance"), std::string::npos) << e.what();
      }
    }
  }
  fs::remove_all(dir);
}
