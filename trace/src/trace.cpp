#include "jackdaw/trace/trace.hpp"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>

namespace jackdaw::trace {
namespace {

constexpr char kMagic[8] = {'J', 'D', 'T', 'R', 'A', 'C', 'E', '1'};

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};
using Gz = std::unique_ptr<gzFile_s, GzCloser>;

void putVarint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

class Input {
 public:
  Input(gzFile f, std::string path) : f_(f), path_(std::move(path)) {}
  void bytes(void* dst, std::size_t n) {
    auto* p = static_cast<char*>(dst);
    while (n > 0) {
      if (pos_ == len_) refill();
      const std::size_t k = std::min(n, len_ - pos_);
      std::memcpy(p, buf_ + pos_, k);
      pos_ += k;
      p += k;
      n -= k;
    }
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ == len_) refill();
      const auto b = static_cast<unsigned char>(buf_[pos_++]);
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail("a number runs past 64 bits");
  }
  bool atEnd() {
    if (pos_ < len_) return false;
    const int n = gzread(f_, buf_, sizeof buf_);
    if (n <= 0) {
      // The end of the data, but is it the stream's? A file cut inside the gzip trailer (its CRC
      // and length) still yields every record: zlib says "unexpected end of file" only here.
      int err = Z_OK;
      const char* msg = gzerror(f_, &err);
      if (err != Z_OK && err != Z_STREAM_END) fail(std::string("corrupt: ") + msg);
      return true;
    }
    pos_ = 0;
    len_ = static_cast<std::size_t>(n);
    return false;
  }
  [[noreturn]] void fail(const std::string& why) const { throw TraceError(path_ + ": not a Jackdaw trace (" + why + ")"); }

 private:
  void refill() {
    const int n = gzread(f_, buf_, sizeof buf_);
    if (n <= 0) {
      int err = 0;
      const char* msg = gzerror(f_, &err);
      fail(err != Z_OK && err != Z_STREAM_END ? std::string("corrupt: ") + msg : "it ends early");
    }
    pos_ = 0;
    len_ = static_cast<std::size_t>(n);
  }
  gzFile f_;
  std::string path_;
  char buf_[1 << 16];
  std::size_t pos_ = 0, len_ = 0;
};

}  // namespace

std::uint64_t Trace::totalNodes() const {
  std::uint64_t n = 0;
  for (const auto& t : tasks) n += t.nodes;
  return n;
}

std::uint64_t Trace::totalCpuNs() const {
  std::uint64_t n = 0;
  for (const auto& t : tasks) n += t.cpuNs;
  return n;
}

std::uint64_t Trace::criticalPathNs() const {
  // Parents come before their children (read() checks it), so one pass finds every start.
  std::vector<double> start(tasks.size(), 0.0);
  double longest = 0.0;
  for (std::size_t id = 0; id < tasks.size(); ++id) {
    const auto& t = tasks[id];
    if (t.parent != kNoParent) {
      const auto& p = tasks[t.parent];
      const double share = p.nodes ? static_cast<double>(t.afterNodes) / static_cast<double>(p.nodes) : 0.0;
      start[id] = start[t.parent] + share * static_cast<double>(p.cpuNs);
    }
    longest = std::max(longest, start[id] + static_cast<double>(t.cpuNs));
  }
  return static_cast<std::uint64_t>(longest);
}

std::vector<std::vector<std::uint64_t>> Trace::children() const { return childrenOf(tasks); }

std::vector<std::vector<std::uint64_t>> childrenOf(const std::vector<TaskRecord>& tasks) {
  std::vector<std::vector<std::uint64_t>> c(tasks.size());
  for (std::uint64_t id = 0; id < tasks.size(); ++id)
    if (tasks[id].parent != kNoParent) c[tasks[id].parent].push_back(id);
  for (auto& v : c)
    std::stable_sort(v.begin(), v.end(), [&](std::uint64_t a, std::uint64_t b) { return tasks[a].afterNodes < tasks[b].afterNodes; });
  return c;
}

namespace {
void putRecords(std::string& out, const std::vector<TaskRecord>& tasks, const std::function<void()>& flush) {
  putVarint(out, tasks.size());
  for (const auto& r : tasks) {
    putVarint(out, r.parent == kNoParent ? 0 : r.parent + 1);
    putVarint(out, r.afterNodes);
    putVarint(out, r.nodes);
    putVarint(out, r.cpuNs);
    putVarint(out, r.depth);
    putVarint(out, r.bytes);
    if (out.size() > (1 << 20)) flush();
  }
}

// Bounds on what a record may say. The replay counts nodes and CPU time in doubles (exact up to
// 2^53) and adds them up in 64 bits; a value past these is no recording, and would be replayed
// wrongly (a wrapped total, a rounded count) or for centuries of simulated time.
constexpr std::uint64_t kMaxTaskValue = 1ull << 53;
constexpr std::uint64_t kMaxTotal = 1ull << 62;

// "1.5 GiB", "300.0 MiB", "16.0 KiB" (as jackdaw::formatBytes, which trace/ may not include).
std::string sizeText(std::uint64_t b) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  char out[48];
  std::snprintf(out, sizeof out, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return out;
}

// What reading a trace has taken so far, against the caller's limit.
struct Budget {
  const std::string& path;
  std::uint64_t limit, used = 0;
  // Claims `count` items of `each` bytes before they are read: a count that cannot fit is refused
  // before memory goes to it.
  void take(std::uint64_t count, std::uint64_t each, const std::string& what) {
    const std::uint64_t left = limit - std::min(used, limit);
    if (count > left / each)
      throw TraceError(path + ": its " + std::to_string(count) + " " + what + " would take about " +
                       (count > UINT64_MAX / each ? std::string("more than 16 EiB") : sizeText(used + count * each)) +
                       ", more than the memory limit of " + sizeText(limit));
    used += count * each;
  }
};

std::vector<TaskRecord> getRecords(Input& in, const std::string& what, Budget& budget, bool mapped) {
  const std::uint64_t n = in.varint();
  if (n > (1ull << 40)) in.fail(what + "impossible task count");
  // A level's task also has its entry in the map to the stronger tree.
  budget.take(n, sizeof(TaskRecord) + (mapped ? sizeof(std::uint64_t) : 0), "tasks");
  std::vector<TaskRecord> tasks;
  tasks.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n, 1ull << 24)));
  std::uint64_t nodes = 0, cpuNs = 0;
  for (std::uint64_t id = 0; id < n; ++id) {
    const auto bad = [&](const std::string& field, std::uint64_t v, const std::string& why) {
      in.fail(what + "task " + std::to_string(id) + ": " + field + " = " + std::to_string(v) + ", " + why);
    };
    TaskRecord r;
    const std::uint64_t p = in.varint();
    r.parent = p == 0 ? kNoParent : p - 1;
    r.afterNodes = in.varint();
    r.nodes = in.varint();
    r.cpuNs = in.varint();
    const std::uint64_t depth = in.varint(), bytes = in.varint();
    if (r.nodes > kMaxTaskValue) bad("nodes", r.nodes, "more than 2^53, the most a replay counts exactly");
    if (r.cpuNs > kMaxTaskValue) bad("cpu_ns (its CPU time)", r.cpuNs, "more than 2^53 ns (104 days)");
    if (depth > UINT32_MAX) bad("depth", depth, "more than 2^32 - 1");
    if (bytes > UINT32_MAX) bad("bytes (its size on the wire)", bytes, "more than 2^32 - 1");
    nodes += r.nodes;
    cpuNs += r.cpuNs;
    if (nodes > kMaxTotal) in.fail(what + "the tasks' nodes add up to more than 2^62 (by task " + std::to_string(id) + ")");
    if (cpuNs > kMaxTotal) in.fail(what + "the tasks' CPU times (cpu_ns) add up to more than 2^62 ns (by task " + std::to_string(id) + ")");
    r.depth = static_cast<std::uint32_t>(depth);
    r.bytes = static_cast<std::uint32_t>(bytes);
    if (r.parent != kNoParent) {
      if (r.parent >= id) in.fail(what + "task " + std::to_string(id) + " has a parent recorded after it");
      if (r.afterNodes > tasks[r.parent].nodes)
        in.fail(what + "task " + std::to_string(id) + " was spawned after its parent's last node");
    }
    tasks.push_back(r);
  }
  return tasks;
}

// The header fields a reader relies on: the totals the recording wrote ("nodes", "tasks") are the
// records' own, and "app", "sense" and "initial_bound" have their types.
void checkHeader(Input& in, const Trace& t) {
  const auto& h = t.header;
  const auto total = [&](const char* key, std::uint64_t want) {
    const auto it = h.find(key);
    if (it == h.end()) return;
    if (!it->is_number_unsigned()) in.fail(std::string("the header's \"") + key + "\" is " + it->dump().substr(0, 40) + ", not a count");
    if (it->get<std::uint64_t>() != want)
      in.fail(std::string("the header's \"") + key + "\" is " + it->dump() + ", the tasks hold " + std::to_string(want));
  };
  total("nodes", t.totalNodes());
  total("tasks", t.tasks.size());
  if (const auto it = h.find("app"); it != h.end() && !it->is_string()) in.fail("the header's \"app\" is not a string");
  if (const auto it = h.find("sense"); it != h.end() && !(it->is_string() && (*it == "maximise" || *it == "minimise")))
    in.fail("the header's \"sense\" is " + it->dump().substr(0, 40) + ", not \"maximise\" or \"minimise\"");
  if (const auto it = h.find("initial_bound"); it != h.end() && !it->is_number())
    in.fail("the header's \"initial_bound\" is " + it->dump().substr(0, 40) + ", not a number");
}

// Writes the trace into f, and closes it.
void writeGz(Gz f, const std::string& path, const Trace& t) {
  if (!f) throw TraceError(path + ": cannot write this file");
  nlohmann::json h = t.header;
  if (t.levels.empty()) {
    h.erase("levels");
  } else {
    h["levels"] = nlohmann::json::array();
    for (const auto& l : t.levels) h["levels"].push_back(l.bound);
  }
  std::string out(kMagic, sizeof kMagic);
  const std::string header = h.dump();
  const auto hlen = static_cast<std::uint32_t>(header.size());
  out.append(reinterpret_cast<const char*>(&hlen), sizeof hlen);  // little-endian hosts only (x86, arm64)
  out += header;
  const std::function<void()> flush = [&] {
    if (!out.empty() && gzwrite(f.get(), out.data(), static_cast<unsigned>(out.size())) != static_cast<int>(out.size()))
      throw TraceError(path + ": writing failed");
    out.clear();
  };
  putRecords(out, t.tasks, flush);
  for (const auto& l : t.levels) {
    putRecords(out, l.tasks, flush);
    for (std::uint64_t up : l.stronger) putVarint(out, up == kNoTask ? 0 : up + 1);
    putVarint(out, l.improvements.size());
    for (const auto& i : l.improvements) {
      putVarint(out, i.task);
      putVarint(out, i.afterNodes);
      out.append(reinterpret_cast<const char*>(&i.objective), sizeof i.objective);
    }
    if (out.size() > (1 << 20)) flush();
  }
  flush();
  if (gzclose(f.release()) != Z_OK) throw TraceError(path + ": writing failed");
}

}  // namespace

void write(const std::string& path, const Trace& t) { writeGz(Gz(gzopen(path.c_str(), "wb6")), path, t); }

void write(int fd, const std::string& name, const Trace& t) {
  const int mine = ::dup(fd);  // gzclose closes its own descriptor, the caller's stays open
  if (mine < 0) throw TraceError(name + ": cannot write this file");
  Gz f(gzdopen(mine, "wb6"));
  if (!f) ::close(mine);
  writeGz(std::move(f), name, t);
}

Trace read(const std::string& path, std::uint64_t memoryLimit) {
  Gz f(gzopen(path.c_str(), "rb"));
  if (!f) throw TraceError(path + ": cannot open this file");
  Input in(f.get(), path);
  char magic[sizeof kMagic];
  in.bytes(magic, sizeof magic);
  if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) in.fail("wrong magic bytes");
  std::uint32_t hlen = 0;
  in.bytes(&hlen, sizeof hlen);
  if (hlen > (1u << 26)) in.fail("header too long");
  std::string header(hlen, '\0');
  in.bytes(header.data(), hlen);
  Trace t;
  t.header = nlohmann::json::parse(header, nullptr, false);
  if (t.header.is_discarded() || !t.header.is_object()) in.fail("the header is not a JSON object");
  Budget budget{path, memoryLimit};
  budget.take(hlen, 2, "header bytes");  // the text and its parsed JSON
  t.tasks = getRecords(in, "", budget, false);
  checkHeader(in, t);
  const auto levels = t.header.find("levels");
  if (levels != t.header.end()) {
    if (!levels->is_array() || levels->size() > 64) in.fail("\"levels\" is not a short list of bounds");
    std::size_t strongerSize = t.tasks.size();
    for (std::size_t i = 0; i < levels->size(); ++i) {
      const auto& b = (*levels)[i];
      if (!b.is_number()) in.fail("\"levels\" holds something other than a number");
      const std::string what = "level " + std::to_string(i + 1) + ": ";
      Level l;
      l.bound = b.get<double>();
      l.tasks = getRecords(in, what, budget, true);
      l.stronger.reserve(l.tasks.size());
      for (std::size_t id = 0; id < l.tasks.size(); ++id) {
        const std::uint64_t up = in.varint();
        if (up > strongerSize) in.fail(what + "task " + std::to_string(id) + " maps to no task of the stronger tree");
        l.stronger.push_back(up == 0 ? kNoTask : up - 1);
      }
      const std::uint64_t k = in.varint();
      if (k > (1ull << 40)) in.fail(what + "impossible improvement count");
      budget.take(k, sizeof(Improvement), "improvements");
      for (std::uint64_t j = 0; j < k; ++j) {
        Improvement m;
        m.task = in.varint();
        m.afterNodes = in.varint();
        in.bytes(&m.objective, sizeof m.objective);
        if (m.task >= l.tasks.size() || m.afterNodes > l.tasks[m.task].nodes)
          in.fail(what + "an improvement outside its task");
        if (!std::isfinite(m.objective)) in.fail(what + "an improvement's objective is not a finite number");
        l.improvements.push_back(m);
      }
      strongerSize = l.tasks.size();
      t.levels.push_back(std::move(l));
    }
  }
  if (!in.atEnd()) in.fail("trailing bytes after the last task");
  return t;
}

}  // namespace jackdaw::trace
