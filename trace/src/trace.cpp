#include "jackdaw/trace/trace.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
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

std::vector<std::vector<std::uint64_t>> Trace::children() const {
  std::vector<std::vector<std::uint64_t>> c(tasks.size());
  for (std::uint64_t id = 0; id < tasks.size(); ++id)
    if (tasks[id].parent != kNoParent) c[tasks[id].parent].push_back(id);
  for (auto& v : c)
    std::stable_sort(v.begin(), v.end(), [&](std::uint64_t a, std::uint64_t b) { return tasks[a].afterNodes < tasks[b].afterNodes; });
  return c;
}

void write(const std::string& path, const Trace& t) {
  Gz f(gzopen(path.c_str(), "wb6"));
  if (!f) throw TraceError(path + ": cannot write this file");
  std::string out(kMagic, sizeof kMagic);
  const std::string header = t.header.dump();
  const auto hlen = static_cast<std::uint32_t>(header.size());
  out.append(reinterpret_cast<const char*>(&hlen), sizeof hlen);  // little-endian hosts only (x86, arm64)
  out += header;
  putVarint(out, t.tasks.size());
  const auto flush = [&] {
    if (!out.empty() && gzwrite(f.get(), out.data(), static_cast<unsigned>(out.size())) != static_cast<int>(out.size()))
      throw TraceError(path + ": writing failed");
    out.clear();
  };
  for (const auto& r : t.tasks) {
    putVarint(out, r.parent == kNoParent ? 0 : r.parent + 1);
    putVarint(out, r.afterNodes);
    putVarint(out, r.nodes);
    putVarint(out, r.cpuNs);
    putVarint(out, r.depth);
    putVarint(out, r.bytes);
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
  const std::uint64_t n = in.varint();
  if (n > (1ull << 40)) in.fail("impossible task count");
  t.tasks.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n, 1ull << 24)));
  for (std::uint64_t id = 0; id < n; ++id) {
    TaskRecord r;
    const std::uint64_t p = in.varint();
    r.parent = p == 0 ? kNoParent : p - 1;
    r.afterNodes = in.varint();
    r.nodes = in.varint();
    r.cpuNs = in.varint();
    const std::uint64_t depth = in.varint(), bytes = in.varint();
    if (depth > UINT32_MAX || bytes > UINT32_MAX) in.fail("task " + std::to_string(id) + ": field out of range");
    r.depth = static_cast<std::uint32_t>(depth);
    r.bytes = static_cast<std::uint32_t>(bytes);
    if (r.parent != kNoParent) {
      if (r.parent >= id) in.fail("task " + std::to_string(id) + " has a parent recorded after it");
      if (r.afterNodes > t.tasks[r.parent].nodes)
        in.fail("task " + std::to_string(id) + " was spawned after its parent's last node");
    }
    t.tasks.push_back(r);
  }
  if (!in.atEnd()) in.fail("trailing bytes after the last task");
  return t;
}

}  // namespace jackdaw::trace
