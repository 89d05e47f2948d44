#include "jackdaw/knapsack/reader.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/input_file.hpp"

namespace jackdaw::knapsack {

namespace {

struct Line {
  std::size_t number = 0;  // 1-based line in the file
  std::string_view text;
};

// The file's non-blank lines with their numbers (the readers below never need the blank ones).
class Lines {
 public:
  explicit Lines(std::string_view text) : lines_(text) {}

  bool next(Line& l) {
    if (!peek(l)) return false;
    peeked_.reset();
    last_ = l.number;
    return true;
  }
  bool peek(Line& l) {
    if (!peeked_) {
      std::string_view s;
      while (lines_.next(s))
        if (s.find_first_not_of(" \t") != std::string_view::npos) {
          peeked_ = Line{lines_.number(), s};
          break;
        }
      if (!peeked_) return false;
    }
    l = *peeked_;
    return true;
  }
  // The number of the last line taken (1 before any).
  std::size_t last() const { return last_ == 0 ? 1 : last_; }

 private:
  TextLines lines_;
  std::optional<Line> peeked_;
  std::size_t last_ = 0;
};

std::vector<std::string_view> tokens(std::string_view s, char extraSep = ' ') {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == ' ' || s[i] == '\t' || s[i] == extraSep) {
      if (i > start) out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

std::optional<double> toNumber(std::string_view t) {
  double x = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
  if (ec != std::errc() || p != t.data() + t.size() || !std::isfinite(x)) return std::nullopt;
  return x + 0.0;  // -0 reads as 0
}

std::string showWhole(unsigned __int128 v) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return s;
}

class Parser {
 public:
  Parser(std::string path, std::uint64_t memoryLimit) : path_(std::move(path)), memoryLimit_(memoryLimit) {}

  [[noreturn]] void fail(std::size_t line, const std::string& what) const { throw InputError(path_, line, what); }

  // A profit, weight, capacity or optimum: a number in [0, kMaxValue].
  double value(const Line& l, std::string_view t, const char* what) const {
    const auto v = toNumber(t);
    if (!v) fail(l.number, std::string("expected a number for ") + what + ", found '" + excerpt(t) + "'");
    if (*v < 0) fail(l.number, std::string(what) + " must not be negative, found '" + excerpt(t) + "'");
    if (*v > kMaxValue)
      fail(l.number, std::string(what) + " " + excerpt(t) +
                         " is above 9007199254740991 (2^53 - 1: above it a double cannot hold every whole number)");
    return *v;
  }
  // An item count or item number: a whole number in [0, kMaxItems].
  long long count(const Line& l, std::string_view t, const char* what) const {
    const auto v = toNumber(t);
    if (!v) fail(l.number, std::string("expected a number for ") + what + ", found '" + excerpt(t) + "'");
    if (*v < 0 || *v > static_cast<double>(kMaxItems))
      fail(l.number, std::string(what) + " " + excerpt(t) + " is out of range [0, " + std::to_string(kMaxItems) + "]");
    if (*v != std::floor(*v)) fail(l.number, std::string(what) + " must be a whole number, found '" + excerpt(t) + "'");
    return static_cast<long long>(*v);
  }
  // `profit weight` on one line.
  Item item(const Line& l, long long label) const {
    const auto t = tokens(l.text);
    if (t.size() != 2) fail(l.number, "expected 'profit weight', found '" + excerpt(l.text) + "'");
    return Item{value(l, t[0], "profit"), value(l, t[1], "weight"), label};
  }
  // Room for `items` items, checked before they are read.
  void requireItems(const Line& l, std::uint64_t items) const {
    requireMemoryAt(path_, l.number, saturatingMul(items, kBytesPerItem), memoryLimit_,
                    std::to_string(items) + " items");
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::uint64_t memoryLimit_;
};

Instance readYewPar(const Parser& p, Lines& lines, std::size_t lineCount) {
  Line cl, zl;
  if (!lines.next(cl) || !lines.next(zl)) p.fail(lines.last(), "expected capacity and expected optimum lines");
  Instance inst;
  const auto c = tokens(cl.text), z = tokens(zl.text);
  if (c.size() != 1) p.fail(cl.number, "expected one number (the capacity)");
  if (z.size() != 1) p.fail(zl.number, "expected one number (the expected optimum)");
  inst.capacity = p.value(cl, c[0], "capacity");
  inst.knownOptimum = p.value(zl, z[0], "expected optimum");
  p.requireItems(zl, lineCount);  // one item per line at most
  for (Line l; lines.next(l);) inst.items.push_back(p.item(l, static_cast<long long>(inst.items.size()) + 1));
  return inst;
}

bool isZeroOneVector(std::string_view s) {
  const auto t = tokens(s);
  if (t.empty()) return false;
  for (const auto x : t)
    if (x != "0" && x != "1") return false;
  return true;
}

Instance readKp01(const Parser& p, Lines& lines) {
  Instance inst;
  Line hl;
  lines.next(hl);
  const auto h = tokens(hl.text);
  if (h.size() != 2) p.fail(hl.number, "expected 'n capacity'");
  const long long n = p.count(hl, h[0], "item count n");
  inst.capacity = p.value(hl, h[1], "capacity");
  p.requireItems(hl, static_cast<std::uint64_t>(n));
  for (long long i = 0; i < n; ++i) {
    Line l;
    if (!lines.next(l))
      p.fail(lines.last(), "file ends after " + std::to_string(i) + " items, header says " + std::to_string(n));
    inst.items.push_back(p.item(l, i + 1));
  }
  // One trailing line of 0/1 values (the large-scale files' solution vector) is not data.
  Line extra, more;
  if (lines.next(extra) && (!isZeroOneVector(extra.text) || lines.peek(more)))
    p.fail(extra.number, "unexpected data after the " + std::to_string(n) + " items of the header");
  return inst;
}

Instance readPisinger(const Parser& p, Lines& lines, const std::string& wanted) {
  std::vector<std::string> names;
  for (Line nameLine; lines.next(nameLine);) {
    const auto nt = tokens(nameLine.text);
    const std::string name = nt.empty() ? "" : excerpt(nt[0]);
    // The block header: name, then four `key value` lines.
    auto field = [&](const char* key) {
      Line l;
      if (!lines.next(l)) p.fail(lines.last(), "instance '" + name + "' ends inside its header");
      const auto t = tokens(l.text);
      if (t.size() != 2 || t[0] != key)
        p.fail(l.number, std::string("expected '") + key + " <value>', found '" + excerpt(l.text) + "'");
      return std::pair{l, t[1]};
    };
    const auto [nl, nv] = field("n");
    const auto [cl, cv] = field("c");
    const auto [zl, zv] = field("z");
    field("time");
    const long long n = p.count(nl, nv, "item count n");
    const bool take = wanted.empty() ? names.empty() : !nt.empty() && nt[0] == wanted;
    names.push_back(name);
    Instance inst;
    if (take) {
      inst.name = name;
      inst.capacity = p.value(cl, cv, "capacity c");
      inst.knownOptimum = p.value(zl, zv, "optimum z");
      p.requireItems(nl, static_cast<std::uint64_t>(n));
    }
    for (long long k = 0; k < n; ++k) {
      Line l;
      if (!lines.peek(l) || l.text.substr(0, 5) == "-----")
        p.fail(lines.peek(l) ? l.number : lines.last(),
               "instance '" + name + "' has " + std::to_string(k) + " item lines, header says n " + std::to_string(n));
      lines.next(l);
      if (!take) continue;
      const auto t = tokens(l.text, ',');
      if (t.size() != 4) p.fail(l.number, "expected 'i,p,w,x', found '" + excerpt(l.text) + "'");
      inst.items.push_back(Item{p.value(l, t[1], "profit"), p.value(l, t[2], "weight"), p.count(l, t[0], "item number")});
    }
    Line end;
    if (!lines.next(end) || end.text.substr(0, 5) != "-----")
      p.fail(lines.last(), "expected '-----' after the " + std::to_string(n) + " items of instance '" + name + "'");
    if (take && !wanted.empty()) return inst;
    Line rest;
    if (take && !lines.peek(rest)) return inst;  // no name given: fine only if the file holds this one block
  }
  if (wanted.empty())
    throw InputError(p.path() + ": holds " + std::to_string(names.size()) + " instances (" + names.front() + ", " +
                     names[1] + ", ...); choose one with --instance NAME");
  throw InputError(p.path() + ": no instance named '" + excerpt(wanted) + "' (first is '" +
                   (names.empty() ? std::string() : names.front()) + "')");
}

// The sum of every profit must stay within kMaxValue, so that every sum a search forms is exact.
void checkProfitSum(const Parser& p, const Instance& inst) {
  bool whole = true;
  for (const Item& it : inst.items) whole = whole && it.profit == std::floor(it.profit);
  if (whole) {
    unsigned __int128 sum = 0;
    for (const Item& it : inst.items) sum += static_cast<std::uint64_t>(it.profit);
    if (sum > static_cast<std::uint64_t>(kMaxValue))
      throw InputError(p.path() + ": the profits add up to " + showWhole(sum) +
                       ", above 9007199254740991 (2^53 - 1): sums of profits would not be exact in a double");
  } else {
    double sum = 0;
    for (const Item& it : inst.items) sum += it.profit;
    if (sum > kMaxValue)
      throw InputError(p.path() + ": the profits add up to about " + std::to_string(sum) +
                       ", above 9007199254740991 (2^53 - 1)");
  }
}

}  // namespace

Format parseFormat(const std::string& name) {
  if (name == "auto") return Format::Auto;
  if (name == "yewpar" || name == "kp") return Format::YewPar;
  if (name == "kp01") return Format::Kp01;
  if (name == "pisinger" || name == "csv") return Format::Pisinger;
  throw InputError("--format " + excerpt(name) + ": unknown (auto, yewpar, kp01, pisinger)");
}

Instance readInstance(const std::string& path, Format format, const std::string& instanceName,
                      std::uint64_t memoryLimit) {
  const Parser p(path, memoryLimit);
  const std::string text = readTextFile(path, memoryLimit, "knapsack file");
  Lines lines(text);
  Line first;
  if (!lines.peek(first)) p.fail(1, "empty file");
  if (format == Format::Auto) {
    const auto t = tokens(first.text);
    if (!toNumber(t[0])) format = Format::Pisinger;
    else if (t.size() == 1) format = Format::YewPar;
    else if (t.size() == 2) format = Format::Kp01;
    else p.fail(first.number, "cannot tell the format: expected 'capacity' (yewpar), 'n capacity' (kp01) or an instance name (pisinger)");
  }
  if (format != Format::Pisinger && !instanceName.empty())
    throw InputError("--instance applies only to Pisinger CSV files ('" + path + "' is not one)");
  Instance inst = format == Format::YewPar ? readYewPar(p, lines, TextLines(text).count())
                  : format == Format::Kp01 ? readKp01(p, lines)
                                           : readPisinger(p, lines, instanceName);
  if (inst.name.empty()) {
    const auto slash = path.find_last_of('/');
    inst.name = slash == std::string::npos ? path : path.substr(slash + 1);
  }
  if (inst.items.empty()) p.fail(lines.last(), "no items");
  checkProfitSum(p, inst);
  return inst;
}

}  // namespace jackdaw::knapsack
