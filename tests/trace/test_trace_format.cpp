// trace/: write + read round trip, and read's one message for a file that is not a trace
// (truncated, wrong magic bytes, garbage, a record that breaks the tree).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "jackdaw/trace/trace.hpp"

namespace {

using jackdaw::trace::kNoParent;
using jackdaw::trace::Trace;
using jackdaw::trace::TraceError;

std::string scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("jackdaw_trace_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

Trace sample(std::size_t n) {
  Trace t;
  t.header = {{"app", "test"}, {"kind", "enumeration"}, {"exact", true}};
  t.tasks.push_back({kNoParent, 0, 5, 1234, 0, 28});
  for (std::size_t i = 1; i < n; ++i) {
    const std::uint64_t parent = (i - 1) / 3;  // every task has up to three children
    t.tasks.push_back({parent, i % 6, 6 + i * 977, (std::uint64_t{1} << 40) + i, static_cast<std::uint32_t>(i % 50),
                       static_cast<std::uint32_t>(20 + i % 300)});
  }
  t.header["nodes"] = t.totalNodes();  // as the recorder writes them: read() checks they agree
  t.header["tasks"] = t.tasks.size();
  return t;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

void spit(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << bytes;
}

// The file's uncompressed content, gzipped again as given.
void gzipTo(const std::string& path, const std::string& raw) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  if (!raw.empty()) ASSERT_EQ(gzwrite(f, raw.data(), static_cast<unsigned>(raw.size())), static_cast<int>(raw.size()));
  gzclose(f);
}

std::string gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string out;
  char buf[4096];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

std::string readError(const std::string& path) {
  try {
    (void)jackdaw::trace::read(path);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TraceFormat, RoundTrip) {
  const Trace t = sample(20000);
  const std::string path = scratch("round.jdtrace");
  jackdaw::trace::write(path, t);
  const Trace back = jackdaw::trace::read(path);
  EXPECT_EQ(back.header, t.header);
  ASSERT_EQ(back.tasks.size(), t.tasks.size());
  for (std::size_t i = 0; i < t.tasks.size(); ++i) {
    const auto &a = t.tasks[i], &b = back.tasks[i];
    ASSERT_EQ(a.parent, b.parent) << i;
    ASSERT_EQ(a.afterNodes, b.afterNodes) << i;
    ASSERT_EQ(a.nodes, b.nodes) << i;
    ASSERT_EQ(a.cpuNs, b.cpuNs) << i;
    ASSERT_EQ(a.depth, b.depth) << i;
    ASSERT_EQ(a.bytes, b.bytes) << i;
  }
  EXPECT_EQ(back.totalNodes(), t.totalNodes());
  EXPECT_EQ(back.totalCpuNs(), t.totalCpuNs());
  const auto kids = back.children();
  EXPECT_EQ(kids[0], (std::vector<std::uint64_t>{1, 2, 3}));
}

// Written into an open descriptor (the apps' temporary file) the bytes are the same as by path,
// the descriptor stays open, and a descriptor that cannot take them is a TraceError.
TEST(TraceFormat, WriteToDescriptor) {
  const Trace t = sample(3000);
  const std::string byPath = scratch("by_path.jdtrace"), byFd = scratch("by_fd.jdtrace");
  jackdaw::trace::write(byPath, t);
  const int fd = ::open(byFd.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  jackdaw::trace::write(fd, byFd, t);
  EXPECT_EQ(::fcntl(fd, F_GETFD), 0) << "the caller's descriptor was closed";
  ::close(fd);
  EXPECT_EQ(slurp(byFd), slurp(byPath));
  EXPECT_EQ(jackdaw::trace::read(byFd).tasks.size(), t.tasks.size());
  const int full = ::open("/dev/full", O_WRONLY);
  if (full >= 0) {
    EXPECT_THROW(jackdaw::trace::write(full, "/dev/full", t), TraceError);
    ::close(full);
  }
}

// Branch and bound's levels: each tree, its map to the one above and its improvements come back
// as written; the header lists the bounds.
TEST(TraceFormat, LevelsRoundTrip) {
  Trace t = sample(50);
  for (int i = 0; i < 2; ++i) {
    jackdaw::trace::Level l;
    l.bound = 12.5 - i;
    l.tasks = sample(60 + 10 * i).tasks;
    for (std::size_t id = 0; id < l.tasks.size(); ++id)
      l.stronger.push_back(id % 7 == 3 ? jackdaw::trace::kNoTask : id % (i == 0 ? 50 : 60));
    l.improvements = {{4, 3, 13.25 - i}, {4, 5, 14.0}, {59, 0, 20.0}};
    t.levels.push_back(l);
  }
  const std::string path = scratch("levels.jdtrace");
  jackdaw::trace::write(path, t);
  const Trace back = jackdaw::trace::read(path);
  EXPECT_EQ(back.header["levels"], nlohmann::json({12.5, 11.5}));
  ASSERT_EQ(back.levels.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto &a = t.levels[i], &b = back.levels[i];
    EXPECT_EQ(b.bound, a.bound);
    ASSERT_EQ(b.tasks.size(), a.tasks.size());
    for (std::size_t id = 0; id < a.tasks.size(); ++id) EXPECT_EQ(b.tasks[id].nodes, a.tasks[id].nodes);
    EXPECT_EQ(b.stronger, a.stronger);
    ASSERT_EQ(b.improvements.size(), a.improvements.size());
    for (std::size_t k = 0; k < a.improvements.size(); ++k) {
      EXPECT_EQ(b.improvements[k].task, a.improvements[k].task);
      EXPECT_EQ(b.improvements[k].afterNodes, a.improvements[k].afterNodes);
      EXPECT_EQ(b.improvements[k].objective, a.improvements[k].objective);
    }
  }
}

// A level whose map names a task the stronger tree does not have is refused, saying which.
TEST(TraceFormat, LevelMapOutOfRange) {
  Trace t = sample(5);
  jackdaw::trace::Level l;
  l.bound = 3;
  l.tasks = sample(4).tasks;
  l.stronger = {0, 1, 2, 5};  // the stronger tree has tasks 0..4
  t.levels.push_back(l);
  const std::string path = scratch("badmap.jdtrace");
  jackdaw::trace::write(path, t);
  EXPECT_NE(readError(path).find("level 1: task 3 maps to no task of the stronger tree"), std::string::npos) << readError(path);
}

// Root: 100 nodes in 1,000 ns. A (spawned after 50 nodes, so at 500 ns) runs 2,000 ns: ends at
// 2,500. B (after 90 nodes, at 900 ns) runs 100 ns, and its child C (after B's 10 of 10 nodes, at
// 1,000 ns) runs 3,000 ns: ends at 4,000, the longest chain. A second seed D runs 3,500 ns from 0.
TEST(TraceFormat, CriticalPath) {
  Trace t;
  t.tasks = {{kNoParent, 0, 100, 1000, 0, 8}, {0, 50, 7, 2000, 1, 8}, {0, 90, 10, 100, 1, 8},
             {2, 10, 3, 3000, 2, 8}, {kNoParent, 0, 1, 3500, 0, 8}};
  EXPECT_EQ(t.criticalPathNs(), 4000u);
  t.tasks[4].cpuNs = 4200;
  EXPECT_EQ(t.criticalPathNs(), 4200u);
  EXPECT_EQ(Trace{}.criticalPathNs(), 0u);
}

TEST(TraceFormat, EmptyAndExtremeValues) {
  Trace t;
  const std::string path = scratch("empty.jdtrace");
  jackdaw::trace::write(path, t);
  EXPECT_TRUE(jackdaw::trace::read(path).tasks.empty());
  // The most a record may say: nodes and CPU time a replay counts exactly (2^53), depth and bytes
  // at their type's limit.
  constexpr std::uint64_t k53 = std::uint64_t{1} << 53;
  t.tasks.push_back({kNoParent, 0, k53, k53, UINT32_MAX, UINT32_MAX});
  jackdaw::trace::write(path, t);
  const Trace back = jackdaw::trace::read(path);
  ASSERT_EQ(back.tasks.size(), 1u);
  EXPECT_EQ(back.tasks[0].nodes, k53);
  EXPECT_EQ(back.tasks[0].cpuNs, k53);
  EXPECT_EQ(back.tasks[0].depth, UINT32_MAX);
  EXPECT_EQ(back.tasks[0].bytes, UINT32_MAX);
}

// One past those limits, or totals that would wrap: refused, naming the field.
TEST(TraceFormat, ValuesPastTheLimits) {
  const std::string path = scratch("limits.jdtrace");
  constexpr std::uint64_t k53 = std::uint64_t{1} << 53;
  Trace t;
  t.tasks = {{kNoParent, 0, UINT64_MAX, 10, 0, 8}};
  jackdaw::trace::write(path, t);
  EXPECT_EQ(readError(path), path + ": not a Jackdaw trace (task 0: nodes = 18446744073709551615, more than 2^53, "
                                    "the most a replay counts exactly)");
  t.tasks = {{kNoParent, 0, 10, k53 + 1, 0, 8}};
  jackdaw::trace::write(path, t);
  EXPECT_NE(readError(path).find("task 0: cpu_ns (its CPU time) = 9007199254740993"), std::string::npos) << readError(path);
  // 1,024 tasks of 2^53 nodes: each one counts, their total does not fit.
  t.tasks.assign(1024, {kNoParent, 0, k53, 1, 0, 8});
  jackdaw::trace::write(path, t);
  EXPECT_NE(readError(path).find("the tasks' nodes add up to more than 2^62 (by task 512)"), std::string::npos) << readError(path);
}

// The header's totals are the records' own; the fields a replay reads have their types.
TEST(TraceFormat, HeaderTotalsAndTypes) {
  const std::string path = scratch("header.jdtrace");
  const auto refusal = [&](const char* key, const nlohmann::json& value) {
    Trace t = sample(4);
    t.header[key] = value;
    jackdaw::trace::write(path, t);
    return readError(path);
  };
  EXPECT_EQ(refusal("nodes", 12), path + ": not a Jackdaw trace (the header's \"nodes\" is 12, the tasks hold 5885)");
  EXPECT_EQ(refusal("tasks", -1), path + ": not a Jackdaw trace (the header's \"tasks\" is -1, not a count)");
  EXPECT_EQ(refusal("sense", "up"),
            path + ": not a Jackdaw trace (the header's \"sense\" is \"up\", not \"maximise\" or \"minimise\")");
  EXPECT_EQ(refusal("app", 3), path + ": not a Jackdaw trace (the header's \"app\" is not a string)");
  EXPECT_EQ(refusal("initial_bound", "x"), path + ": not a Jackdaw trace (the header's \"initial_bound\" is \"x\", not a number)");
  EXPECT_EQ(refusal("sense", "minimise"), "(no error)");
}

// A trace whose records would not fit the caller's memory limit is refused before they are read.
TEST(TraceFormat, MemoryLimit) {
  const std::string path = scratch("budget.jdtrace");
  jackdaw::trace::write(path, sample(1000));
  EXPECT_EQ(jackdaw::trace::read(path, 1 << 20).tasks.size(), 1000u);
  try {
    (void)jackdaw::trace::read(path, 16 << 10);
    FAIL() << "no error";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": its 1000 tasks would take about"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("more than the memory limit of 16.0 KiB"), std::string::npos) << e.what();
  }
}

TEST(TraceFormat, TruncatedFile) {
  const std::string path = scratch("whole.jdtrace"), cut = scratch("cut.jdtrace");
  jackdaw::trace::write(path, sample(5000));
  const std::string bytes = slurp(path);
  // Cut inside the compressed stream, and just before the gzip trailer (CRC and length).
  for (std::size_t keep : {bytes.size() / 2, bytes.size() - 4}) {
    spit(cut, bytes.substr(0, keep));
    const std::string e = readError(cut);
    EXPECT_NE(e.find(cut + ": not a Jackdaw trace ("), std::string::npos) << keep << ": " << e;
  }
  // A whole gzip stream whose content stops in the middle of the records.
  const std::string raw = gunzip(path);
  gzipTo(cut, raw.substr(0, raw.size() - 7));
  EXPECT_EQ(readError(cut), cut + ": not a Jackdaw trace (it ends early)");
  // ... or in the header.
  gzipTo(cut, raw.substr(0, 20));
  EXPECT_EQ(readError(cut), cut + ": not a Jackdaw trace (it ends early)");
}

TEST(TraceFormat, WrongMagic) {
  const std::string path = scratch("magic.jdtrace");
  jackdaw::trace::write(path, sample(10));
  std::string raw = gunzip(path);
  raw[7] = '2';
  gzipTo(path, raw);
  EXPECT_EQ(readError(path), path + ": not a Jackdaw trace (wrong magic bytes)");
}

TEST(TraceFormat, Garbage) {
  const std::string path = scratch("garbage.jdtrace");
  spit(path, "this is a text file, not a trace at all\n");
  EXPECT_EQ(readError(path), path + ": not a Jackdaw trace (wrong magic bytes)");
  spit(path, "abc");
  EXPECT_EQ(readError(path), path + ": not a Jackdaw trace (it ends early)");
  spit(path, "");
  EXPECT_EQ(readError(path), path + ": not a Jackdaw trace (it ends early)");
  // A gzip header followed by noise.
  spit(path, std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10) + std::string(200, '\x5a'));
  EXPECT_EQ(readError(path).rfind(path + ": not a Jackdaw trace (", 0), 0u) << readError(path);
  // Trailing bytes after the last record.
  jackdaw::trace::write(path, sample(10));
  gzipTo(path, gunzip(path) + "x");
  EXPECT_EQ(readError(path), path + ": not a Jackdaw trace (trailing bytes after the last task)");
  // A header that is not JSON.
  std::string raw = gunzip(path);
  raw[12] = '#';
  gzipTo(path, raw);
  EXPECT_EQ(readError(path), path + ": not a Jackdaw trace (the header is not a JSON object)");
}

TEST(TraceFormat, BrokenTree) {
  const std::string path = scratch("tree.jdtrace");
  Trace t = sample(10);
  t.tasks[4].parent = 7;  // after it
  jackdaw::trace::write(path, t);
  EXPECT_EQ(readError(path), path + ": not a Jackdaw trace (task 4 has a parent recorded after it)");
  t = sample(10);
  t.tasks[5].afterNodes = t.tasks[t.tasks[5].parent].nodes + 1;
  jackdaw::trace::write(path, t);
  EXPECT_EQ(readError(path), path + ": not a Jackdaw trace (task 5 was spawned after its parent's last node)");
}

TEST(TraceFormat, MissingAndUnwritable) {
  EXPECT_EQ(readError("/nonexistent/x.jdtrace"), "/nonexistent/x.jdtrace: cannot open this file");
  try {
    jackdaw::trace::write("/nonexistent/x.jdtrace", sample(3));
    FAIL() << "no error";
  } catch (const TraceError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/x.jdtrace: cannot write this file");
  }
}

}  // namespace
