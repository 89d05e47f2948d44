#include "jackdaw/tsp/tsplib.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/input_file.hpp"

namespace jackdaw::tsp {

// ---- distance functions (TSPLIB95 document, section 2) ----
//
// Each is computed in double up to the value TSPLIB converts to int; the conversion happens only
// once that value is known to be in range (a float-to-int conversion out of range is undefined).

namespace {

// GEO coordinates are DDD.MM (degrees, then minutes as two decimals); TSPLIB truncates to degrees.
double geoRadians(double x) {
  constexpr double kPi = 3.141592;  // TSPLIB's own value: the published optima depend on it
  const double deg = std::trunc(x);  // TSPLIB's (int) cast, without its overflow
  const double min = x - deg;
  return kPi * (deg + 5.0 * min / 3.0) / 180.0;
}

// TSPLIB's nint(x) = (int)(x + 0.5), before the cast.
double nintRaw(double x) { return std::trunc(x + 0.5); }

double rawEuc2d(double x1, double y1, double x2, double y2) { return nintRaw(std::hypot(x1 - x2, y1 - y2)); }
double rawCeil2d(double x1, double y1, double x2, double y2) { return std::ceil(std::hypot(x1 - x2, y1 - y2)); }
double rawAtt(double x1, double y1, double x2, double y2) {
  const double xd = x1 - x2, yd = y1 - y2;
  const double r = std::sqrt((xd * xd + yd * yd) / 10.0);
  const double t = nintRaw(r);
  return t < r ? t + 1 : t;
}
double rawGeo(double x1, double y1, double x2, double y2) {
  constexpr double kRrr = 6378.388;
  const double lat1 = geoRadians(x1), lon1 = geoRadians(y1), lat2 = geoRadians(x2), lon2 = geoRadians(y2);
  const double q1 = std::cos(lon1 - lon2), q2 = std::cos(lat1 - lat2), q3 = std::cos(lat1 + lat2);
  // Rounding can put the argument a hair outside [-1, 1], where acos is not a number.
  const double c = std::clamp(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3), -1.0, 1.0);
  return std::trunc(kRrr * std::acos(c) + 1.0);
}

bool weightInRange(double v) { return v >= 0 && v <= kMaxWeight; }  // false for NaN too

int checkedWeight(double v) {
  if (!weightInRange(v))
    throw InputError("distance " + std::to_string(v) + " is beyond the limit " + std::to_string(kMaxWeight) +
                     " of a TSP weight");
  return static_cast<int>(v);
}

}  // namespace

int distEuc2d(double x1, double y1, double x2, double y2) { return checkedWeight(rawEuc2d(x1, y1, x2, y2)); }
int distCeil2d(double x1, double y1, double x2, double y2) { return checkedWeight(rawCeil2d(x1, y1, x2, y2)); }
int distAtt(double x1, double y1, double x2, double y2) { return checkedWeight(rawAtt(x1, y1, x2, y2)); }
int distGeo(double x1, double y1, double x2, double y2) { return checkedWeight(rawGeo(x1, y1, x2, y2)); }

// ---- the file reader ----

namespace {

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Whitespace-separated tokens (views into the line).
std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f')) ++i;
    const std::size_t start = i;
    while (i < s.size() && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f')) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

// A finite decimal number ('+' allowed in front); nullopt for anything else, overflow included.
std::optional<double> toDouble(std::string_view t) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<long long> toInt(std::string_view t) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  long long v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 10);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return v;
}

bool startsWithNumber(std::string_view line) {
  const auto t = tokens(line);
  return !t.empty() && toDouble(t[0]).has_value();
}

// The file once in memory, walked line by line, so every error can name one.
class Lines {
 public:
  Lines(const std::string& p, std::uint64_t memoryLimit, const std::string& what)
      : path(p), text_(readTextFile(p, memoryLimit, what)), lines_(text_) {}
  Lines(const Lines&) = delete;
  Lines& operator=(const Lines&) = delete;

  bool done() const { return lines_.done(); }
  std::string_view take() {
    std::string_view l;
    lines_.next(l);
    return l;
  }
  std::string_view peek() const {
    std::string_view l;
    lines_.peek(l);
    return l;
  }
  std::size_t lineNo() const { return lines_.number(); }  // 1-based number of the line last taken
  std::size_t lastLine() const { return lines_.count(); }
  [[noreturn]] void fail(const std::string& what) const { throw InputError(path, lineNo(), what); }
  [[noreturn]] void failAt(std::size_t line, const std::string& what) const { throw InputError(path, line, what); }

  const std::string path;

 private:
  const std::string text_;
  TextLines lines_;
};

// Splits "KEY: value" / "KEY : value" / "KEY"; the key is upper-case as TSPLIB writes it.
std::pair<std::string_view, std::string_view> keyValue(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return {trim(line), {}};
  return {trim(line.substr(0, colon)), trim(line.substr(colon + 1))};
}

int parseDimension(const Lines& f, std::string_view v) {
  const auto d = toInt(v);
  if (!d || *d < 1) f.fail("DIMENSION must be a positive integer, got '" + excerpt(v) + "'");
  if (*d > kMaxDimension)
    f.fail("DIMENSION " + excerpt(v) + " is too large (limit " + std::to_string(kMaxDimension) + ")");
  return static_cast<int>(*d);
}

// Matrix cells in the order an EXPLICIT format lists them, one at a time (a list of n^2 cells
// would take more memory than the matrix). A *_COL format lists a triangle column by column: for a
// symmetric matrix that is the other triangle row by row.
class CellOrder {
 public:
  CellOrder(const Lines& f, std::string_view format, int n) : n_(n) {
    if (format == "FULL_MATRIX") full_ = true;
    else if (format == "UPPER_ROW" || format == "LOWER_COL") upper_ = true, diag_ = false;
    else if (format == "LOWER_ROW" || format == "UPPER_COL") upper_ = false, diag_ = false;
    else if (format == "UPPER_DIAG_ROW" || format == "LOWER_DIAG_COL") upper_ = true, diag_ = true;
    else if (format == "LOWER_DIAG_ROW" || format == "UPPER_DIAG_COL") upper_ = false, diag_ = true;
    else f.fail("EDGE_WEIGHT_FORMAT '" + excerpt(format) + "' is not supported");
    const auto un = static_cast<std::uint64_t>(n);
    total_ = full_ ? un * un : diag_ ? un * (un + 1) / 2 : un * (un - 1) / 2;
    j_ = from(0);
    skipEmptyRows();
  }
  std::uint64_t total() const { return total_; }
  std::pair<int, int> take() {
    const std::pair<int, int> c{i_, j_};
    ++j_;
    skipEmptyRows();
    return c;
  }

 private:
  int from(int row) const { return full_ || !upper_ ? 0 : diag_ ? row : row + 1; }
  int to(int row) const { return full_ || upper_ ? n_ : diag_ ? row + 1 : row; }
  void skipEmptyRows() {
    while (i_ < n_ && j_ >= to(i_))
      if (++i_ < n_) j_ = from(i_);
  }
  int n_;
  bool full_ = false, upper_ = false, diag_ = false;
  std::uint64_t total_ = 0;
  int i_ = 0, j_ = 0;
};

void readMatrix(Lines& f, std::string_view format, int n, std::vector<std::int32_t>& dist) {
  CellOrder cells(f, format, n);
  const bool full = format == "FULL_MATRIX";
  const std::string count = std::to_string(cells.total());
  std::uint64_t k = 0;
  while (k < cells.total()) {
    if (f.done()) f.fail("EDGE_WEIGHT_SECTION ends after " + std::to_string(k) + " of " + count + " numbers");
    for (const auto t : tokens(f.take())) {
      const auto v = toInt(t);
      if (!v)
        f.fail("EDGE_WEIGHT_SECTION: '" + excerpt(t) + "' is not an integer (" + std::to_string(k) + " of " + count +
               " numbers read)");
      if (k == cells.total()) f.fail("EDGE_WEIGHT_SECTION: more numbers than " + std::string(format) + " needs");
      if (*v < -kMaxWeight - 1 || *v > kMaxWeight)
        f.fail("EDGE_WEIGHT_SECTION: weight " + excerpt(t) + " is out of range (limit " +
               std::to_string(kMaxWeight) + " in magnitude)");
      const auto [i, j] = cells.take();
      ++k;
      if (i == j) continue;  // the diagonal is never used
      const auto a = static_cast<std::size_t>(i) * n + j, b = static_cast<std::size_t>(j) * n + i;
      // A full matrix lists both halves: the lower one (j < i) repeats a number read before.
      if (full && j < i && dist[b] != *v)
        f.fail("matrix is not symmetric: d(" + std::to_string(j + 1) + "," + std::to_string(i + 1) + ")=" +
               std::to_string(dist[b]) + " but d(" + std::to_string(i + 1) + "," + std::to_string(j + 1) +
               ")=" + excerpt(t) + " (TYPE TSP needs a symmetric matrix)");
      dist[a] = dist[b] = static_cast<std::int32_t>(*v);
    }
  }
}

void readCoords(Lines& f, int n, std::vector<double>& x, std::vector<double>& y) {
  std::vector<char> seen(n, 0);
  for (int read = 0; read < n;) {
    if (f.done() || (!trim(f.peek()).empty() && !startsWithNumber(f.peek()))) {
      if (!f.done()) f.take();
      f.fail("NODE_COORD_SECTION ends after " + std::to_string(read) + " of " + std::to_string(n) + " cities");
    }
    const auto t = tokens(f.take());
    if (t.empty()) continue;
    if (t.size() != 3) f.fail("NODE_COORD_SECTION: expected 'id x y', got " + std::to_string(t.size()) + " fields");
    const auto id = toInt(t[0]);
    const auto xv = toDouble(t[1]), yv = toDouble(t[2]);
    if (!id || *id < 1 || *id > n)
      f.fail("NODE_COORD_SECTION: city id '" + excerpt(t[0]) + "' is not in 1.." + std::to_string(n));
    if (!xv || !yv)
      f.fail("NODE_COORD_SECTION: coordinates '" + excerpt(t[1]) + " " + excerpt(t[2]) + "' are not numbers");
    if (seen[*id - 1]) f.fail("NODE_COORD_SECTION: city " + excerpt(t[0]) + " appears twice");
    seen[*id - 1] = 1;
    x[*id - 1] = *xv;
    y[*id - 1] = *yv;
    ++read;
  }
}

}  // namespace

Instance readTsplib(const std::string& path, std::uint64_t memoryLimit) {
  Lines f(path, memoryLimit, "TSPLIB file");
  Instance inst;
  std::string weightType, weightFormat;
  std::optional<int> dim;
  bool haveCoords = false, haveMatrix = false;
  std::size_t coordLine = 0;
  std::vector<double> x, y;
  std::vector<std::int32_t> dist;

  auto needDimension = [&](std::string_view section) {
    if (!dim) f.fail(std::string(section) + " before DIMENSION");
    return *dim;
  };

  while (!f.done()) {
    const std::string_view line = trim(f.take());
    if (line.empty()) continue;
    const auto [key, value] = keyValue(line);
    if (key == "EOF") break;
    if (key == "NAME") inst.name = excerpt(value, 200);
    else if (key == "TYPE") {
      if (value != "TSP") f.fail("TYPE '" + excerpt(value) + "' is not supported (only symmetric TSP)");
    } else if (key == "COMMENT" || key == "DISPLAY_DATA_TYPE" || key == "NODE_COORD_TYPE") {
      if (key == "NODE_COORD_TYPE" && value != "TWOD_COORDS" && value != "NO_COORDS")
        f.fail("NODE_COORD_TYPE '" + excerpt(value) + "' is not supported");
    } else if (key == "DIMENSION") {
      if (dim) f.fail("DIMENSION given twice");
      dim = parseDimension(f, value);
      const auto n = static_cast<std::uint64_t>(*dim);
      requireMemoryAt(path, f.lineNo(), saturatingMul(n * n, kBytesPerCityPair), memoryLimit,
                      "the distance matrices of " + std::to_string(n) + " cities");
    } else if (key == "EDGE_WEIGHT_TYPE") {
      if (value != "EUC_2D" && value != "CEIL_2D" && value != "ATT" && value != "GEO" && value != "EXPLICIT")
        f.fail("EDGE_WEIGHT_TYPE '" + excerpt(value) + "' is not supported (EUC_2D, CEIL_2D, ATT, GEO, EXPLICIT)");
      weightType = value;
    } else if (key == "EDGE_WEIGHT_FORMAT") {
      weightFormat = excerpt(value);
    } else if (key == "NODE_COORD_SECTION") {
      const int n = needDimension(key);
      if (haveCoords) f.fail("NODE_COORD_SECTION given twice");
      coordLine = f.lineNo();
      x.assign(n, 0.0);
      y.assign(n, 0.0);
      readCoords(f, n, x, y);
      haveCoords = true;
    } else if (key == "EDGE_WEIGHT_SECTION") {
      const int n = needDimension(key);
      if (weightType != "EXPLICIT") f.fail("EDGE_WEIGHT_SECTION needs EDGE_WEIGHT_TYPE: EXPLICIT before it");
      if (weightFormat.empty()) f.fail("EDGE_WEIGHT_SECTION needs EDGE_WEIGHT_FORMAT before it");
      if (haveMatrix) f.fail("EDGE_WEIGHT_SECTION given twice");
      dist.assign(static_cast<std::size_t>(n) * n, 0);
      readMatrix(f, weightFormat, n, dist);
      haveMatrix = true;
    } else if (key == "DISPLAY_DATA_SECTION") {
      while (!f.done() && (trim(f.peek()).empty() || startsWithNumber(f.peek()))) f.take();
    } else {
      f.fail("unknown or unsupported keyword '" + excerpt(key) + "'");
    }
  }

  const std::size_t last = f.lastLine();
  if (!dim) f.failAt(last, "no DIMENSION in the file");
  if (weightType.empty()) f.failAt(last, "no EDGE_WEIGHT_TYPE in the file");
  inst.n = *dim;
  if (weightType == "EXPLICIT") {
    if (!haveMatrix) f.failAt(last, "EDGE_WEIGHT_TYPE EXPLICIT but no EDGE_WEIGHT_SECTION");
    inst.dist = std::move(dist);
  } else {
    if (!haveCoords) f.failAt(last, "EDGE_WEIGHT_TYPE " + weightType + " but no NODE_COORD_SECTION");
    double (*fn)(double, double, double, double) = weightType == "EUC_2D"    ? rawEuc2d
                                                   : weightType == "CEIL_2D" ? rawCeil2d
                                                   : weightType == "ATT"     ? rawAtt
                                                                             : rawGeo;
    const int n = inst.n;
    inst.dist.assign(static_cast<std::size_t>(n) * n, 0);
    // Every function is symmetric in its two cities: compute each pair once.
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        const double v = fn(x[i], y[i], x[j], y[j]);
        if (!weightInRange(v))
          f.failAt(coordLine, "NODE_COORD_SECTION: the " + weightType + " distance between cities " +
                                  std::to_string(i + 1) + " and " + std::to_string(j + 1) + " (" +
                                  (std::isnan(v) ? std::string("not a number") : std::to_string(v)) +
                                  ") is beyond the limit " + std::to_string(kMaxWeight) + " of a TSP weight");
        inst.dist[static_cast<std::size_t>(i) * n + j] = inst.dist[static_cast<std::size_t>(j) * n + i] =
            static_cast<std::int32_t>(v);
      }
  }
  return inst;
}

std::vector<int> readTour(const std::string& path, int n, std::uint64_t memoryLimit) {
  Lines f(path, memoryLimit, "TSPLIB tour file");
  std::vector<int> tour;
  bool section = false;
  while (!f.done()) {
    const std::string_view line = trim(f.take());
    if (line.empty()) continue;
    const auto [key, value] = keyValue(line);
    if (key == "EOF") break;
    if (key == "TYPE" && value != "TOUR") f.fail("TYPE '" + excerpt(value) + "' is not TOUR");
    if (key == "DIMENSION" && parseDimension(f, value) != n)
      f.fail("DIMENSION " + excerpt(value) + " does not match the instance (" + std::to_string(n) + " cities)");
    if (key != "TOUR_SECTION") continue;
    section = true;
    std::vector<char> seen(n, 0);
    bool ended = false;
    while (!ended && !f.done()) {
      for (const auto t : tokens(f.take())) {
        const auto id = toInt(t);
        if (!id) f.fail("TOUR_SECTION: '" + excerpt(t) + "' is not an integer");
        if (*id == -1) {
          ended = true;
          break;
        }
        if (*id < 1 || *id > n) f.fail("TOUR_SECTION: city " + excerpt(t) + " is not in 1.." + std::to_string(n));
        if (seen[*id - 1]) f.fail("TOUR_SECTION: city " + excerpt(t) + " appears twice");
        seen[*id - 1] = 1;
        tour.push_back(static_cast<int>(*id - 1));
      }
    }
    if (static_cast<int>(tour.size()) != n)
      f.fail("TOUR_SECTION has " + std::to_string(tour.size()) + " of " + std::to_string(n) + " cities");
    break;
  }
  if (!section) f.failAt(f.lastLine(), "no TOUR_SECTION in the file");
  return tour;
}

}  // namespace jackdaw::tsp
