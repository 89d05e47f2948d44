#include "jackdaw/trace/trace.hpp"

#include <zlib.h>

#include <algorithm>
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

std::vector<TaskRecord> getRecords(Input& in, const std::string& what) {
  const std::uint64_t n = in.varint();
  if (n > (1ull << 40)) in.fail("impossible task count");
  std::vector<TaskRecord> tasks;
  tasks.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n, 1ull << 24)));
  for (std::uint64_t id = 0; id < n; ++id) {
    TaskRecord r;
    const std::uint64_t p = in.varint();
    r.parent = p == 0 ? kNoParent : p - 1;
    r.afterNodes = in.varint();
    r.nodes = in.varint();
    r.cpuNs = in.varint();
    const std::uint64_t depth = in.varint(), bytes = in.varint();
    if (depth > UINT32_MAX || bytes > UINT32_MAX) in.fail(what + "task " + std::to_string(id) + ": field out of range");
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
}  // namespace

void write(const std::string& path, const Trace& t) {
  Gz f(gzopen(path.c_str(), "wb6"));
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

Trace read(const std::string& path) {
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
  t.tasks = getRecords(in, "");
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
      l.tasks = getRecords(in, what);
      l.stronger.reserve(l.tasks.size());
      for (std::size_t id = 0; id < l.tasks.size(); ++id) {
        const std::uint64_t up = in.varint();
        if (up > strongerSize) in.fail(what + "task " + std::to_string(id) + " maps to no task of the stronger tree");
        l.stronger.push_back(up == 0 ? kNoTask : up - 1);
      }
      const std::uint64_t k = in.varint();
      if (k > (1ull << 40)) in.fail(what + "impossible improvement count");
      for (std::uint64_t j = 0; j < k; ++j) {
        Improvement m;
        m.task = in.varint();
        m.afterNodes = in.varint();
        in.bytes(&m.objective, sizeof m.objective);
        if (m.task >= l.tasks.size() || m.afterNodes > l.tasks[m.task].nodes)
          in.fail(what + "an improvement outside its task");
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
