// Bad input, systematically: every instance reader gets thousands of broken variants of a valid
// file, all from a fixed seed: random ones (truncations, byte flips, huge / negative / empty
// numbers, lines dropped, repeated or garbled, an empty file) and structure-aware ones (numbers at
// the limits of int, int64 and double, 2^53 + 1, denormals, -0; a UTF-8 byte-order mark; NUL
// bytes; lines of a million characters) and what is not a regular file at all (a FIFO, /dev/zero,
// /dev/null, a directory, a missing file). Each variant must either be refused with an InputError
// that names the file, in a message of bounded length, or be read as a still-valid instance whose
// values are within the reader's stated limits. Any other exception, a crash (the sanitizer build
// runs this too) or a hang (a deadline per read, and CTest's timeout) fails.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "deadline.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/knapsack/reader.hpp"
#include "jackdaw/maxclique/dimacs.hpp"
#include "jackdaw/sip/graph.hpp"
#include "jackdaw/tsp/instance.hpp"
#include "jackdaw/tsp/tsplib.hpp"

namespace fs = std::filesystem;
using namespace jackdaw;

namespace {

using jackdaw::test::withDeadline;

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

// Whether a graph read by the DIMACS reader is one: vertices in range, edges sorted and distinct.
std::string dimacsInvalid(const maxclique::DimacsGraph& g) {
  if (g.n < 0) return "negative vertex count";
  for (std::size_t k = 0; k < g.edges.size(); ++k) {
    const auto [a, b] = g.edges[k];
    if (a < 0 || b >= g.n || a >= b) return "edge out of range";
    if (k > 0 && !(g.edges[k - 1] < g.edges[k])) return "edges not sorted and distinct";
  }
  return {};
}

std::string tspInvalid(const tsp::Instance& inst) {
  if (inst.n < 1 || inst.n > tsp::kMaxDimension) return "dimension out of range";
  if (inst.dist.size() != static_cast<std::size_t>(inst.n) * inst.n) return "matrix of the wrong size";
  for (int i = 0; i < inst.n; ++i)
    for (int j = 0; j < inst.n; ++j) {
      if (i == j) continue;
      const auto d = inst.d(i, j);
      if (d != inst.d(j, i)) return "asymmetric matrix";
      if (d < -tsp::kMaxWeight - 1 || d > tsp::kMaxWeight) return "weight beyond kMaxWeight";
    }
  return {};
}

std::string knapsackInvalid(const knapsack::Instance& inst) {
  auto bad = [](double v) { return !std::isfinite(v) || v < 0 || v > knapsack::kMaxValue; };
  if (inst.items.empty()) return "no items";
  if (bad(inst.capacity)) return "capacity out of range";
  if (inst.knownOptimum && bad(*inst.knownOptimum)) return "stated optimum out of range";
  double sum = 0;
  for (const auto& it : inst.items) {
    if (bad(it.profit) || bad(it.weight)) return "profit or weight out of range";
    sum += it.profit;
  }
  if (sum > knapsack::kMaxValue) return "profits add up beyond 2^53 - 1";
  return {};
}

std::string sipInvalid(const sip::Graph& g) {
  if (g.n < 0 || g.n > sip::kMaxVertices) return "vertex count out of range";
  if (static_cast<int>(g.names.size()) != g.n || static_cast<int>(g.degree.size()) != g.n) return "sizes disagree";
  for (int u = 0; u < g.n; ++u) {
    int degree = 0;
    for (int v = 0; v < g.n; ++v) {
      if (g.adjacent(u, v) != g.adjacent(v, u)) return "asymmetric adjacency";
      degree += u != v && g.adjacent(u, v);
    }
    if (degree != g.degree[u]) return "degree disagrees with the adjacency";
  }
  return {};
}

struct Reader {
  std::string name;
  std::string seed;                                            // the valid file's bytes
  std::function<std::string(const std::string& path)> read;   // throws InputError, or says what is invalid ("" if nothing)
  std::string suffix;                                          // the file name's ending (some readers look at it)
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
  auto kp = [](knapsack::Format f) {
    return [f](const std::string& p) { return knapsackInvalid(knapsack::readInstance(p, f)); };
  };
  auto sipReader = [](sip::Format f) { return [f](const std::string& p) { return sipInvalid(sip::readGraph(p, f)); }; };
  return {
      {"DIMACS", slurp(inst + "/dimacs/hamming6-4.clq"), [](const std::string& p) { return dimacsInvalid(maxclique::readDimacs(p)); }, ".clq"},
      {"TSPLIB coordinates", slurp(inst + "/tsp/burma14.tsp"), [](const std::string& p) { return tspInvalid(tsp::readTsplib(p)); }, ".tsp"},
      {"TSPLIB matrix", slurp(inst + "/tsp/gr17.tsp"), [](const std::string& p) { return tspInvalid(tsp::readTsplib(p)); }, ".tsp"},
      {"TSPLIB tour", slurp(inst + "/tsp/ulysses16.opt.tour"),
       [](const std::string& p) {
         std::vector<int> sorted = tsp::readTour(p, 16);
         std::sort(sorted.begin(), sorted.end());
         for (int i = 0; i < 16; ++i)
           if (static_cast<int>(sorted.size()) != 16 || sorted[i] != i) return std::string("not a permutation");
         return std::string();
       },
       ".tour"},
      {"knapsack yewpar", slurp(inst + "/knapsack/yewpar/knapsackTest1.kp"), kp(knapsack::Format::YewPar), ".kp"},
      {"knapsack kp01", slurp(inst + "/knapsack/instances_01_KP/low-dimensional/f3_l-d_kp_4_20"), kp(knapsack::Format::Kp01), ""},
      {"knapsack pisinger", pisingerBlock(), kp(knapsack::Format::Pisinger), ".csv"},
      {"knapsack auto-detected", slurp(inst + "/knapsack/instances_01_KP/low-dimensional/f4_l-d_kp_4_11"), kp(knapsack::Format::Auto), ""},
      {"SIP LAD", slurp(inst + "/sip/glasgow/small"), sipReader(sip::Format::Lad), ""},
      {"SIP CSV", slurp(inst + "/sip/glasgow/c3.csv"), sipReader(sip::Format::Csv), ".csv"},
  };
}

// Numbers at the limits of the types a reader might parse into.
const char* const kLimitNumbers[] = {
    "2147483647", "-2147483648", "2147483648", "9223372036854775807", "-9223372036854775808",
    "9223372036854775808", "18446744073709551616", "9007199254740992", "9007199254740993", "1e308",
    "-1e308", "1.7976931348623157e308", "1e400", "-0", "4.9e-324", "2.2250738585072014e-308",
    "1e-320", "inf", "nan", "0x10", "536870912", "100000001"};

// The positions of the number tokens of `s`: (offset, length).
std::vector<std::pair<std::size_t, std::size_t>> numberTokens(const std::string& s) {
  std::vector<std::pair<std::size_t, std::size_t>> nums;
  for (std::size_t i = 0; i < s.size();) {
    if (std::isdigit(static_cast<unsigned char>(s[i]))) {
      std::size_t j = i;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
      nums.emplace_back(i, j - i);
      i = j;
    } else {
      ++i;
    }
  }
  return nums;
}

// The structure-aware variants of `seed`: (description, bytes).
std::vector<std::pair<std::string, std::string>> structuredVariants(const std::string& seed, std::mt19937_64& rng) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto nums = numberTokens(seed);
  // Every limit number at several number positions (the first ones are headers: always included).
  for (const char* by : kLimitNumbers) {
    for (int k = 0; k < 6 && !nums.empty(); ++k) {
      const auto [at, len] = nums[k < 3 ? std::min<std::size_t>(k, nums.size() - 1) : rng() % nums.size()];
      std::string s = seed;
      s.replace(at, len, by);
      out.emplace_back("the number at byte " + std::to_string(at) + " replaced by '" + by + "'", s);
    }
  }
  const auto lines = splitLines(seed);
  auto lineReplaced = [&](std::size_t i, const std::string& by) {
    auto l = lines;
    if (!l.empty()) l[i % l.size()] = by;
    return joinLines(l);
  };
  out.emplace_back("a UTF-8 byte-order mark in front", "\xEF\xBB\xBF" + seed);
  out.emplace_back("a byte-order mark starting line 2", lineReplaced(1, "\xEF\xBB\xBF" + (lines.size() > 1 ? lines[1] : "")));
  out.emplace_back("a NUL byte in front", std::string(1, '\0') + seed);
  out.emplace_back("a NUL byte in the middle", seed.substr(0, seed.size() / 2) + std::string(1, '\0') + seed.substr(seed.size() / 2));
  out.emplace_back("a NUL byte at the end", seed + std::string(1, '\0'));
  const std::string big(1'000'000, 'x');
  out.emplace_back("the first line replaced by 10^6 characters", lineReplaced(0, big));
  out.emplace_back("a middle line replaced by 10^6 characters", lineReplaced(lines.size() / 2, big));
  out.emplace_back("a number of 10^6 digits", lineReplaced(lines.size() / 2, "1" + std::string(999'999, '0')));
  out.emplace_back("a line of 10^6 blanks", lineReplaced(lines.size() / 2, std::string(1'000'000, ' ')));
  out.emplace_back("10^6 characters appended to the last line", seed + big);
  out.emplace_back("a one-line file of 10^6 digits", std::string(1'000'000, '7'));
  out.emplace_back("CRLF line ends", [&] {
    std::string t;
    for (const auto& l : lines) t += l + "\r\n";
    return t;
  }());
  return out;
}


struct Tally {
  int cases = 0, refused = 0, accepted = 0, withLine = 0;
};

// Reads one variant: refused with a bounded InputError naming `path`, or read as a valid instance.
void check(const Reader& r, const std::string& path, const std::string& how, Tally& tally) {
  ++tally.cases;
  std::string invalid, message, other;
  bool threwInput = false;
  withDeadline(r.name + " (" + how + ")", 60, [&] {
    try {
      invalid = r.read(path);
    } catch (const InputError& e) {
      threwInput = true;
      message = e.what();
    } catch (const std::exception& e) {
      other = std::string(typeid(e).name()) + ": " + std::string(e.what()).substr(0, 300);
    }
  });
  if (!other.empty()) {
    ADD_FAILURE() << r.name << " (" << how << "): not an InputError but " << other;
    return;
  }
  if (!threwInput) {
    ++tally.accepted;  // a variant that is still a valid file (e.g. a digit changed inside a range)
    EXPECT_EQ(invalid, "") << r.name << " (" << how << "): read, but the instance is not valid";
    return;
  }
  ++tally.refused;
  // "file:line: what", or for a file-wide fault "file: what" / "… 'file' …".
  EXPECT_NE(message.find(path), std::string::npos)
      << r.name << " (" << how << "): the message does not name the file: " << message.substr(0, 300);
  EXPECT_LE(message.size(), path.size() + 600)
      << r.name << " (" << how << "): a message of " << message.size() << " characters: " << message.substr(0, 300);
  if (message.rfind(path + ":", 0) == 0 && message.size() > path.size() + 1 &&
      std::isdigit(static_cast<unsigned char>(message[path.size() + 1])))
    ++tally.withLine;
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
  std::string seedInvalid;
  ASSERT_NO_THROW(seedInvalid = r.read(seedPath)) << r.name << ": the unmutated seed is not read";
  ASSERT_EQ(seedInvalid, "") << r.name;

  std::mt19937_64 rng(0x5eed + static_cast<std::uint64_t>(GetParam()));
  auto writeAndCheck = [&](const std::string& bytes, const std::string& how, int i, Tally& t) {
    const std::string path = (dir / ("case" + std::to_string(i) + r.suffix)).string();
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    check(r, path, how, t);
    fs::remove(path);
  };

  Tally random;
  for (int i = 0; i < kPerReader; ++i) {
    std::string how;
    const std::string bytes = mutate(r.seed, rng, how);
    writeAndCheck(bytes, how, i, random);
  }

  Tally structured;
  int i = 0;
  for (const auto& [how, bytes] : structuredVariants(r.seed, rng)) writeAndCheck(bytes, how, i++, structured);

  // What is not a regular file: each must be refused by name, none may block or be read.
  Tally special;
  const std::string fifo = (dir / ("fifo" + r.suffix)).string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const auto& bad : {fifo, std::string("/dev/zero"), std::string("/dev/null"), dir.string(),
                          (dir / ("no-such-file" + r.suffix)).string()}) {
    const int before = special.refused;
    check(r, bad, bad, special);
    EXPECT_EQ(special.refused, before + 1) << r.name << ": " << bad << " was read as an instance";
  }
  fs::remove_all(dir);

  const int cases = random.cases + structured.cases + special.cases;
  std::printf("reader mutation: %s: %d cases: %d random (%d refused, %d naming a line, %d still valid), "
              "%d structured (%d refused, %d still valid), %d not regular files (all refused)\n",
              r.name.c_str(), cases, random.cases, random.refused, random.withLine, random.accepted, structured.cases,
              structured.refused, structured.accepted, special.cases);
  EXPECT_GT(random.refused, kPerReader / 4) << r.name << ": most broken files should be refused";
}

INSTANTIATE_TEST_SUITE_P(EveryReader, Mutation, testing::Range(0, static_cast<int>(readers().size())), [](const testing::TestParamInfo<int>& i) {
  std::string n = readers()[static_cast<std::size_t>(i.param)].name;
  for (char& c : n) if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});
