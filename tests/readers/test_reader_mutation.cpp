// Bad input, systematically: every instance reader gets thousands of broken variants of a valid
// file (truncations, byte flips, huge / negative / empty numbers, lines dropped, repeated or
// garbled, an empty file, a directory), all from a fixed seed. Each variant must either be
// refused with an InputError that names the file, or be read as a still-valid instance. Any other
// exception, a crash (the sanitizer build runs this too) or a hang (CTest's timeout) fails.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/knapsack/reader.hpp"
#include "jackdaw/maxclique/dimacs.hpp"
#include "jackdaw/sip/graph.hpp"
#include "jackdaw/tsp/tsplib.hpp"

namespace fs = std::filesystem;
using namespace jackdaw;

namespace {

std::string slurp(const std::string& path, std::size_t maxLines = 0) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("test seed missing: " + path);
  if (maxLines == 0) return {std::istreambuf_iterator<char>(in), {}};
  std::string out, line;
  for (std::size_t i = 0; i < maxLines && std::getline(in, line); ++i) out += line + "\n";
  return out;
}

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}
std::string joinLines(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// One broken variant of `seed`, chosen by the generator.
std::string mutate(const std::string& seed, std::mt19937_64& rng, std::string& how) {
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % std::max<std::size_t>(n, 1)); };
  static const char* const kNumbers[] = {"99999999999999999999999", "-1", "-2147483649", "0", "4294967296",
                                         "18446744073709551616", "1e308", "nan", "", "-0", "2147483647", "7x"};
  static const char kBytes[] = "0123456789- \t\n,:.eE+abcXYZ#\r\x7f\xff";
  std::string s = seed;
  auto lines = splitLines(seed);
  switch (rng() % 7) {
    case 0:
      s.resize(pick(s.size()));
      how = "truncated to " + std::to_string(s.size()) + " bytes";
      break;
    case 1: {
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int i = 0; i < flips && !s.empty(); ++i) s[pick(s.size())] = kBytes[pick(sizeof kBytes - 1)];
      how = std::to_string(flips) + " byte(s) flipped";
      break;
    }
    case 2: {  // one number token replaced
      std::vector<std::pair<std::size_t, std::size_t>> nums;
      for (std::size_t i = 0; i < s.size();) {
        if (std::isdigit(static_cast<unsigned char>(s[i]))) {
          std::size_t j = i;
          while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
          nums.emplace_back(i, j - i);
          i = j;
        } else {
          ++i;
        }
      }
      if (nums.empty()) break;
      const auto [at, len] = nums[pick(nums.size())];
      const char* by = kNumbers[pick(std::size(kNumbers))];
      s.replace(at, len, by);
      how = "a number at byte " + std::to_string(at) + " replaced by '" + by + "'";
      break;
    }
    case 3:
      if (!lines.empty()) lines.erase(lines.begin() + static_cast<long>(pick(lines.size())));
      s = joinLines(lines);
      how = "a line dropped";
      break;
    case 4:
      if (!lines.empty()) {
        const auto i = pick(lines.size());
        lines.insert(lines.begin() + static_cast<long>(i), lines[i]);
      }
      s = joinLines(lines);
      how = "a line repeated";
      break;
    case 5:
      lines.insert(lines.begin() + static_cast<long>(pick(lines.size() + 1)), "%% garbage 1 2 3 -4 x");
      s = joinLines(lines);
      how = "a garbage line inserted";
      break;
    default:
      s.clear();
      how = "emptied";
      break;
  }
  return s;
}

struct Reader {
  std::string name;
  std::string seed;                                     // the valid file's bytes
  std::function<void(const std::string& path)> read;    // throws InputError, or returns a valid instance
  std::string suffix;                                   // the file name's ending (some readers look at it)
};

std::vector<Reader> readers() {
  const std::string inst = JACKDAW_INSTANCES;
  auto pisingerBlock = [&] {
    std::string out;
    for (const auto& l : splitLines(slurp(inst + "/knapsack/pisinger/smallcoeff_pisinger/knapPI_1_50_1000.csv"))) {
      out += l + "\n";
      if (l.rfind("-----", 0) == 0) break;
    }
    return out;
  };
  return {
      {"DIMACS", slurp(inst + "/dimacs/hamming6-4.clq"), [](const std::string& p) { maxclique::readDimacs(p); }, ".clq"},
      {"TSPLIB coordinates", slurp(inst + "/tsp/burma14.tsp"), [](const std::string& p) { tsp::readTsplib(p); }, ".tsp"},
      {"TSPLIB matrix", slurp(inst + "/tsp/gr17.tsp"), [](const std::string& p) { tsp::readTsplib(p); }, ".tsp"},
      {"knapsack yewpar", slurp(inst + "/knapsack/yewpar/knapsackTest1.kp"),
       [](const std::string& p) { knapsack::readInstance(p, knapsack::Format::YewPar); }, ".kp"},
      {"knapsack kp01", slurp(inst + "/knapsack/instances_01_KP/low-dimensional/f3_l-d_kp_4_20"),
       [](const std::string& p) { knapsack::readInstance(p, knapsack::Format::Kp01); }, ""},
      {"knapsack pisinger", pisingerBlock(),
       [](const std::string& p) { knapsack::readInstance(p, knapsack::Format::Pisinger); }, ".csv"},
      {"knapsack auto-detected", slurp(inst + "/knapsack/instances_01_KP/low-dimensional/f4_l-d_kp_4_11"),
       [](const std::string& p) { knapsack::readInstance(p); }, ""},
      {"SIP LAD", slurp(inst + "/sip/glasgow/small"), [](const std::string& p) { sip::readGraph(p, sip::Format::Lad); }, ""},
      {"SIP CSV", slurp(inst + "/sip/glasgow/c3.csv"), [](const std::string& p) { sip::readGraph(p, sip::Format::Csv); }, ".csv"},
  };
}

class Mutation : public testing::TestWithParam<int> {};

constexpr int kPerReader = 400;

}  // namespace

TEST_P(Mutation, EveryVariantIsRefusedCleanlyOrReadAsValid) {
  const Reader r = readers()[static_cast<std::size_t>(GetParam())];
  const fs::path dir = fs::temp_directory_path() / ("jackdaw-mutation-" + std::to_string(getpid()));
  fs::create_directories(dir);
  // The seed itself is valid.
  const std::string seedPath = (dir / ("seed" + r.suffix)).string();
  std::ofstream(seedPath, std::ios::binary) << r.seed;
  ASSERT_NO_THROW(r.read(seedPath)) << r.name << ": the unmutated seed is not read";

  std::mt19937_64 rng(0x5eed + static_cast<std::uint64_t>(GetParam()));
  int refused = 0, accepted = 0, withLine = 0;
  for (int i = 0; i < kPerReader; ++i) {
    std::string how;
    const std::string bytes = mutate(r.seed, rng, how);
    const std::string path = (dir / ("case" + std::to_string(i) + r.suffix)).string();
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    try {
      r.read(path);
      ++accepted;  // a variant that is still a valid file (e.g. a digit changed inside a range)
    } catch (const InputError& e) {
      ++refused;
      // "file:line: what", or for a file-wide fault "file: what" / "… 'file' …".
      const std::string m = e.what();
      EXPECT_NE(m.find(path), std::string::npos)
          << r.name << " case " << i << " (" << how << "): the message does not name the file: " << m;
      if (m.rfind(path + ":", 0) == 0 && m.size() > path.size() + 1 && std::isdigit(static_cast<unsigned char>(m[path.size() + 1])))
        ++withLine;
    } catch (const std::exception& e) {
      ADD_FAILURE() << r.name << " case " << i << " (" << how << "): not an InputError but " << typeid(e).name()
                    << ": " << e.what();
    }
    fs::remove(path);
  }
  // A directory, and a file that does not exist.
  for (const auto& bad : {dir.string(), (dir / "no-such-file").string()}) {
    try {
      r.read(bad);
      ADD_FAILURE() << r.name << ": " << bad << " was read as an instance";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << r.name << ": " << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << r.name << ": " << bad << ": not an InputError: " << e.what();
    }
  }
  fs::remove_all(dir);
  std::printf("%s: %d variants refused (%d naming a line), %d still valid\n", r.name.c_str(), refused, withLine,
              accepted);
  EXPECT_GT(refused, kPerReader / 4) << r.name << ": most broken files should be refused";
}

INSTANTIATE_TEST_SUITE_P(EveryReader, Mutation, testing::Range(0, 9), [](const testing::TestParamInfo<int>& i) {
  std::string n = readers()[static_cast<std::size_t>(i.param)].name;
  for (char& c : n) if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});
