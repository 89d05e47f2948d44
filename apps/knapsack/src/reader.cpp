#include "jackdaw/knapsack/reader.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "jackdaw/core/errors.hpp"

namespace jackdaw::knapsack {

namespace {

struct Line {
  std::size_t number;  // 1-based line in the file
  std::string text;
};

// Non-blank lines with their numbers; the readers below never need the blank ones.
std::vector<Line> readLines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open knapsack file '" + path + "'");
  std::vector<Line> lines;
  std::string s;
  for (std::size_t n = 1; std::getline(in, s); ++n) {
    if (!s.empty() && s.back() == '\r') s.pop_back();
    if (s.find_first_not_of(" \t") != std::string::npos) lines.push_back({n, s});
  }
  return lines;
}

std::vector<std::string> tokens(const std::string& s, char extraSep = ' ') {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == extraSep) {
      if (!cur.empty()) out.push_back(std::move(cur)), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

bool isNumber(const std::string& t, double* v = nullptr) {
  double x = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
  if (ec != std::errc() || p != t.data() + t.size() || !std::isfinite(x)) return false;
  if (v) *v = x;
  return true;
}

class Parser {
 public:
  explicit Parser(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(std::size_t line, const std::string& what) const { throw InputError(path_, line, what); }

  double number(const Line& l, const std::string& t, const char* what) const {
    double v;
    if (!isNumber(t, &v)) fail(l.number, std::string("expected a number for ") + what + ", found '" + t + "'");
    return v;
  }
  double nonNegative(const Line& l, const std::string& t, const char* what) const {
    const double v = number(l, t, what);
    if (v < 0) fail(l.number, std::string(what) + " must not be negative, found '" + t + "'");
    return v;
  }
  long long count(const Line& l, const std::string& t, const char* what) const {
    const double v = nonNegative(l, t, what);
    if (v != std::floor(v) || v > 1e8) fail(l.number, std::string(what) + " must be a whole number, found '" + t + "'");
    return static_cast<long long>(v);
  }
  // `profit weight` on one line.
  Item item(const Line& l, long long label) const {
    const auto t = tokens(l.text);
    if (t.size() != 2) fail(l.number, "expected 'profit weight', found '" + l.text + "'");
    return Item{nonNegative(l, t[0], "profit"), nonNegative(l, t[1], "weight"), label};
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

Instance readYewPar(const Parser& p, const std::vector<Line>& lines) {
  if (lines.size() < 2) p.fail(lines.empty() ? 1 : lines.back().number, "expected capacity and expected optimum lines");
  Instance inst;
  const auto c = tokens(lines[0].text), z = tokens(lines[1].text);
  if (c.size() != 1) p.fail(lines[0].number, "expected one number (the capacity)");
  if (z.size() != 1) p.fail(lines[1].number, "expected one number (the expected optimum)");
  inst.capacity = p.nonNegative(lines[0], c[0], "capacity");
  inst.knownOptimum = p.nonNegative(lines[1], z[0], "expected optimum");
  for (std::size_t i = 2; i < lines.size(); ++i) inst.items.push_back(p.item(lines[i], static_cast<long long>(i - 1)));
  return inst;
}

bool isZeroOneVector(const std::string& s) {
  const auto t = tokens(s);
  if (t.empty()) return false;
  for (const auto& x : t)
    if (x != "0" && x != "1") return false;
  return true;
}

Instance readKp01(const Parser& p, const std::vector<Line>& lines) {
  Instance inst;
  const auto h = tokens(lines[0].text);
  if (h.size() != 2) p.fail(lines[0].number, "expected 'n capacity'");
  const long long n = p.count(lines[0], h[0], "item count n");
  inst.capacity = p.nonNegative(lines[0], h[1], "capacity");
  if (static_cast<long long>(lines.size()) - 1 < n)
    p.fail(lines.back().number, "file ends after " + std::to_string(lines.size() - 1) + " items, header says " +
                                    std::to_string(n));
  for (long long i = 0; i < n; ++i) inst.items.push_back(p.item(lines[1 + i], i + 1));
  const std::size_t rest = lines.size() - 1 - static_cast<std::size_t>(n);
  if (rest > 1 || (rest == 1 && !isZeroOneVector(lines.back().text)))
    p.fail(lines[1 + n].number, "unexpected data after the " + std::to_string(n) + " items of the header");
  return inst;
}

Instance readPisinger(const Parser& p, const std::vector<Line>& lines, const std::string& wanted) {
  std::vector<std::string> names;
  std::size_t i = 0;
  while (i < lines.size()) {
    const Line& nameLine = lines[i];
    const std::string name = tokens(nameLine.text).empty() ? "" : tokens(nameLine.text)[0];
    // The block header: name, then four `key value` lines.
    auto field = [&](std::size_t k, const char* key) -> const Line& {
      if (i + k >= lines.size()) p.fail(lines.back().number, "instance '" + name + "' ends inside its header");
      const Line& l = lines[i + k];
      const auto t = tokens(l.text);
      if (t.size() != 2 || t[0] != key) p.fail(l.number, std::string("expected '") + key + " <value>', found '" + l.text + "'");
      return l;
    };
    const Line& nl = field(1, "n");
    const Line& cl = field(2, "c");
    const Line& zl = field(3, "z");
    field(4, "time");
    const long long n = p.count(nl, tokens(nl.text)[1], "item count n");
    const bool take = wanted.empty() ? names.empty() : name == wanted;
    names.push_back(name);
    Instance inst;
    if (take) {
      inst.name = name;
      inst.capacity = p.nonNegative(cl, tokens(cl.text)[1], "capacity c");
      inst.knownOptimum = p.nonNegative(zl, tokens(zl.text)[1], "optimum z");
    }
    i += 5;
    for (long long k = 0; k < n; ++k, ++i) {
      if (i >= lines.size() || lines[i].text.rfind("-----", 0) == 0)
        p.fail(i < lines.size() ? lines[i].number : lines.back().number,
               "instance '" + name + "' has " + std::to_string(k) + " item lines, header says n " + std::to_string(n));
      if (!take) continue;
      const auto t = tokens(lines[i].text, ',');
      if (t.size() != 4) p.fail(lines[i].number, "expected 'i,p,w,x', found '" + lines[i].text + "'");
      inst.items.push_back(Item{p.nonNegative(lines[i], t[1], "profit"), p.nonNegative(lines[i], t[2], "weight"),
                                p.count(lines[i], t[0], "item number")});
    }
    if (i >= lines.size() || lines[i].text.rfind("-----", 0) != 0)
      p.fail(i < lines.size() ? lines[i].number : lines.back().number,
             "expected '-----' after the " + std::to_string(n) + " items of instance '" + name + "'");
    ++i;
    if (take && !wanted.empty()) return inst;
    if (take && wanted.empty()) {
      // No name given: fine only if the file holds this one block.
      if (i >= lines.size()) return inst;
    }
  }
  if (wanted.empty())
    throw InputError(p.path() + ": holds " + std::to_string(names.size()) + " instances (" + names.front() + ", " +
                     names[1] + ", ...); choose one with --instance NAME");
  throw InputError(p.path() + ": no instance named '" + wanted + "' (first is '" + names.front() + "')");
}

}  // namespace

Format parseFormat(const std::string& name) {
  if (name == "auto") return Format::Auto;
  if (name == "yewpar" || name == "kp") return Format::YewPar;
  if (name == "kp01") return Format::Kp01;
  if (name == "pisinger" || name == "csv") return Format::Pisinger;
  throw InputError("--format " + name + ": unknown (auto, yewpar, kp01, pisinger)");
}

Instance readInstance(const std::string& path, Format format, const std::string& instanceName) {
  const Parser p(path);
  const auto lines = readLines(path);
  if (lines.empty()) p.fail(1, "empty file");
  if (format == Format::Auto) {
    const auto t = tokens(lines[0].text);
    if (!isNumber(t[0])) format = Format::Pisinger;
    else if (t.size() == 1) format = Format::YewPar;
    else if (t.size() == 2) format = Format::Kp01;
    else p.fail(lines[0].number, "cannot tell the format: expected 'capacity' (yewpar), 'n capacity' (kp01) or an instance name (pisinger)");
  }
  if (format != Format::Pisinger && !instanceName.empty())
    throw InputError("--instance applies only to Pisinger CSV files ('" + path + "' is not one)");
  Instance inst = format == Format::YewPar ? readYewPar(p, lines)
                  : format == Format::Kp01 ? readKp01(p, lines)
                                           : readPisinger(p, lines, instanceName);
  if (inst.name.empty()) {
    const auto slash = path.find_last_of('/');
    inst.name = slash == std::string::npos ? path : path.substr(slash + 1);
  }
  if (inst.items.empty()) p.fail(lines.back().number, "no items");
  return inst;
}

}  // namespace jackdaw::knapsack
