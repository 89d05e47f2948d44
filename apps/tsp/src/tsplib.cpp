#include "jackdaw/tsp/tsplib.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "jackdaw/core/errors.hpp"

namespace jackdaw::tsp {

// ---- distance functions (TSPLIB95 document, section 2) ----

namespace {
int nint(double x) { return static_cast<int>(x + 0.5); }

// GEO coordinates are DDD.MM (degrees, then minutes as two decimals); TSPLIB truncates to degrees.
double geoRadians(double x) {
  constexpr double kPi = 3.141592;  // TSPLIB's own value: the published optima depend on it
  const int deg = static_cast<int>(x);
  const double min = x - deg;
  return kPi * (deg + 5.0 * min / 3.0) / 180.0;
}
}  // namespace

int distEuc2d(double x1, double y1, double x2, double y2) { return nint(std::hypot(x1 - x2, y1 - y2)); }

int distCeil2d(double x1, double y1, double x2, double y2) {
  return static_cast<int>(std::ceil(std::hypot(x1 - x2, y1 - y2)));
}

int distAtt(double x1, double y1, double x2, double y2) {
  const double xd = x1 - x2, yd = y1 - y2;
  const double r = std::sqrt((xd * xd + yd * yd) / 10.0);
  const int t = nint(r);
  return t < r ? t + 1 : t;
}

int distGeo(double x1, double y1, double x2, double y2) {
  constexpr double kRrr = 6378.388;
  const double lat1 = geoRadians(x1), lon1 = geoRadians(y1), lat2 = geoRadians(x2), lon2 = geoRadians(y2);
  const double q1 = std::cos(lon1 - lon2), q2 = std::cos(lat1 - lat2), q3 = std::cos(lat1 + lat2);
  return static_cast<int>(kRrr * std::acos(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)) + 1.0);
}

// ---- the file reader ----

namespace {

constexpr int kMaxDimension = 20000;  // dense int matrix: 1.6 GB at this size

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> tokens(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

std::optional<double> toDouble(const std::string& t) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<long long> toInt(const std::string& t) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(t.c_str(), &end, 10);
  if (t.empty() || *end != '\0' || errno == ERANGE) return std::nullopt;
  return v;
}

bool startsWithNumber(const std::string& line) {
  const auto t = tokens(line);
  return !t.empty() && toDouble(t[0]).has_value();
}

// The file as numbered lines, so every error can name one.
struct Lines {
  std::string path;
  std::vector<std::string> text;
  std::size_t next = 0;  // index of the next unread line

  explicit Lines(const std::string& p) : path(p) {
    std::ifstream in(p);
    if (!in) throw InputError("cannot open '" + p + "'");
    for (std::string l; std::getline(in, l);) text.push_back(l);
  }
  bool done() const { return next >= text.size(); }
  std::size_t lineNo() const { return next; }  // 1-based number of the line last taken
  [[noreturn]] void fail(const std::string& what) const { throw InputError(path, lineNo(), what); }
  [[noreturn]] void failAt(std::size_t line, const std::string& what) const { throw InputError(path, line, what); }
};

// Splits "KEY: value" / "KEY : value" / "KEY"; the key is upper-case as TSPLIB writes it.
std::pair<std::string, std::string> keyValue(const std::string& line) {
  const auto colon = line.find(':');
  if (colon == std::string::npos) return {trim(line), ""};
  return {trim(line.substr(0, colon)), trim(line.substr(colon + 1))};
}

int parseDimension(const Lines& f, const std::string& v) {
  const auto d = toInt(v);
  if (!d || *d < 1) f.fail("DIMENSION must be a positive integer, got '" + v + "'");
  if (*d > kMaxDimension) f.fail("DIMENSION " + v + " is too large (limit " + std::to_string(kMaxDimension) + ")");
  return static_cast<int>(*d);
}

// Matrix cells in the order an EXPLICIT format lists them.
std::vector<std::pair<int, int>> cellOrder(const Lines& f, const std::string& format, int n) {
  std::vector<std::pair<int, int>> cells;
  auto rows = [&](bool upper, bool diag) {
    for (int i = 0; i < n; ++i) {
      const int from = upper ? (diag ? i : i + 1) : 0;
      const int to = upper ? n : (diag ? i + 1 : i);
      for (int j = from; j < to; ++j) cells.emplace_back(i, j);
    }
  };
  // A *_COL format lists a triangle column by column: for a symmetric matrix that is the other
  // triangle row by row.
  if (format == "FULL_MATRIX") {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) cells.emplace_back(i, j);
  } else if (format == "UPPER_ROW" || format == "LOWER_COL") rows(true, false);
  else if (format == "LOWER_ROW" || format == "UPPER_COL") rows(false, false);
  else if (format == "UPPER_DIAG_ROW" || format == "LOWER_DIAG_COL") rows(true, true);
  else if (format == "LOWER_DIAG_ROW" || format == "UPPER_DIAG_COL") rows(false, true);
  else f.fail("EDGE_WEIGHT_FORMAT '" + format + "' is not supported");
  return cells;
}

void readMatrix(Lines& f, const std::string& format, int n, std::vector<std::int32_t>& dist,
                std::vector<char>& set) {
  const auto cells = cellOrder(f, format, n);
  std::size_t k = 0;
  while (k < cells.size()) {
    if (f.done()) f.fail("EDGE_WEIGHT_SECTION ends after " + std::to_string(k) + " of " +
                         std::to_string(cells.size()) + " numbers");
    const std::string& line = f.text[f.next++];
    for (const auto& t : tokens(line)) {
      const auto v = toInt(t);
      if (!v) f.fail("EDGE_WEIGHT_SECTION: '" + t + "' is not an integer (" + std::to_string(k) + " of " +
                     std::to_string(cells.size()) + " numbers read)");
      if (k == cells.size()) f.fail("EDGE_WEIGHT_SECTION: more numbers than " + format + " needs");
      if (*v < INT32_MIN / 4 || *v > INT32_MAX / 4) f.fail("EDGE_WEIGHT_SECTION: weight " + t + " is out of range");
      const auto [i, j] = cells[k++];
      if (i == j) continue;  // the diagonal is never used
      const auto a = static_cast<std::size_t>(i) * n + j, b = static_cast<std::size_t>(j) * n + i;
      if (set[b] && dist[b] != *v)
        f.fail("matrix is not symmetric: d(" + std::to_string(j + 1) + "," + std::to_string(i + 1) + ")=" +
               std::to_string(dist[b]) + " but d(" + std::to_string(i + 1) + "," + std::to_string(j + 1) +
               ")=" + t + " (TYPE TSP needs a symmetric matrix)");
      dist[a] = dist[b] = static_cast<std::int32_t>(*v);
      set[a] = set[b] = 1;
    }
  }
}

void readCoords(Lines& f, int n, std::vector<double>& x, std::vector<double>& y) {
  std::vector<char> seen(n, 0);
  for (int read = 0; read < n;) {
    if (f.done() || (!trim(f.text[f.next]).empty() && !startsWithNumber(f.text[f.next]))) {
      if (!f.done()) ++f.next;
      f.fail("NODE_COORD_SECTION ends after " + std::to_string(read) + " of " + std::to_string(n) + " cities");
    }
    const auto t = tokens(f.text[f.next++]);
    if (t.empty()) continue;
    if (t.size() != 3) f.fail("NODE_COORD_SECTION: expected 'id x y', got " + std::to_string(t.size()) + " fields");
    const auto id = toInt(t[0]);
    const auto xv = toDouble(t[1]), yv = toDouble(t[2]);
    if (!id || *id < 1 || *id > n) f.fail("NODE_COORD_SECTION: city id '" + t[0] + "' is not in 1.." + std::to_string(n));
    if (!xv || !yv) f.fail("NODE_COORD_SECTION: coordinates '" + t[1] + " " + t[2] + "' are not numbers");
    if (seen[*id - 1]) f.fail("NODE_COORD_SECTION: city " + t[0] + " appears twice");
    seen[*id - 1] = 1;
    x[*id - 1] = *xv;
    y[*id - 1] = *yv;
    ++read;
  }
}

}  // namespace

Instance readTsplib(const std::string& path) {
  Lines f(path);
  Instance inst;
  std::string weightType, weightFormat;
  std::optional<int> dim;
  bool haveCoords = false, haveMatrix = false;
  std::vector<double> x, y;
  std::vector<std::int32_t> dist;
  std::vector<char> set;

  auto needDimension = [&](const std::string& section) {
    if (!dim) f.fail(section + " before DIMENSION");
    return *dim;
  };

  while (!f.done()) {
    const std::string line = trim(f.text[f.next++]);
    if (line.empty()) continue;
    const auto [key, value] = keyValue(line);
    if (key == "EOF") break;
    if (key == "NAME") inst.name = value;
    else if (key == "TYPE") {
      if (value != "TSP") f.fail("TYPE '" + value + "' is not supported (only symmetric TSP)");
    } else if (key == "COMMENT" || key == "DISPLAY_DATA_TYPE" || key == "NODE_COORD_TYPE") {
      if (key == "NODE_COORD_TYPE" && value != "TWOD_COORDS" && value != "NO_COORDS")
        f.fail("NODE_COORD_TYPE '" + value + "' is not supported");
    } else if (key == "DIMENSION") {
      dim = parseDimension(f, value);
    } else if (key == "EDGE_WEIGHT_TYPE") {
      if (value != "EUC_2D" && value != "CEIL_2D" && value != "ATT" && value != "GEO" && value != "EXPLICIT")
        f.fail("EDGE_WEIGHT_TYPE '" + value + "' is not supported (EUC_2D, CEIL_2D, ATT, GEO, EXPLICIT)");
      weightType = value;
    } else if (key == "EDGE_WEIGHT_FORMAT") {
      weightFormat = value;
    } else if (key == "NODE_COORD_SECTION") {
      const int n = needDimension(key);
      x.assign(n, 0.0);
      y.assign(n, 0.0);
      readCoords(f, n, x, y);
      haveCoords = true;
    } else if (key == "EDGE_WEIGHT_SECTION") {
      const int n = needDimension(key);
      if (weightType != "EXPLICIT") f.fail("EDGE_WEIGHT_SECTION needs EDGE_WEIGHT_TYPE: EXPLICIT before it");
      if (weightFormat.empty()) f.fail("EDGE_WEIGHT_SECTION needs EDGE_WEIGHT_FORMAT before it");
      dist.assign(static_cast<std::size_t>(n) * n, 0);
      set.assign(dist.size(), 0);
      readMatrix(f, weightFormat, n, dist, set);
      haveMatrix = true;
    } else if (key == "DISPLAY_DATA_SECTION") {
      while (!f.done() && (trim(f.text[f.next]).empty() || startsWithNumber(f.text[f.next]))) ++f.next;
    } else {
      f.fail("unknown or unsupported keyword '" + key + "'");
    }
  }

  const std::size_t last = f.text.size();
  if (!dim) f.failAt(last, "no DIMENSION in the file");
  if (weightType.empty()) f.failAt(last, "no EDGE_WEIGHT_TYPE in the file");
  inst.n = *dim;
  if (weightType == "EXPLICIT") {
    if (!haveMatrix) f.failAt(last, "EDGE_WEIGHT_TYPE EXPLICIT but no EDGE_WEIGHT_SECTION");
    inst.dist = std::move(dist);
  } else {
    if (!haveCoords) f.failAt(last, "EDGE_WEIGHT_TYPE " + weightType + " but no NODE_COORD_SECTION");
    int (*fn)(double, double, double, double) = weightType == "EUC_2D"    ? distEuc2d
                                                : weightType == "CEIL_2D" ? distCeil2d
                                                : weightType == "ATT"     ? distAtt
                                                                          : distGeo;
    const int n = inst.n;
    inst.dist.assign(static_cast<std::size_t>(n) * n, 0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (i != j) inst.dist[static_cast<std::size_t>(i) * n + j] = fn(x[i], y[i], x[j], y[j]);
  }
  return inst;
}

std::vector<int> readTour(const std::string& path, int n) {
  Lines f(path);
  std::vector<int> tour;
  bool section = false;
  while (!f.done()) {
    const std::string line = trim(f.text[f.next++]);
    if (line.empty()) continue;
    const auto [key, value] = keyValue(line);
    if (key == "EOF") break;
    if (key == "TYPE" && value != "TOUR") f.fail("TYPE '" + value + "' is not TOUR");
    if (key == "DIMENSION" && parseDimension(f, value) != n)
      f.fail("DIMENSION " + value + " does not match the instance (" + std::to_string(n) + " cities)");
    if (key != "TOUR_SECTION") continue;
    section = true;
    std::vector<char> seen(n, 0);
    bool ended = false;
    while (!ended && !f.done()) {
      for (const auto& t : tokens(f.text[f.next++])) {
        const auto id = toInt(t);
        if (!id) f.fail("TOUR_SECTION: '" + t + "' is not an integer");
        if (*id == -1) {
          ended = true;
          break;
        }
        if (*id < 1 || *id > n) f.fail("TOUR_SECTION: city " + t + " is not in 1.." + std::to_string(n));
        if (seen[*id - 1]) f.fail("TOUR_SECTION: city " + t + " appears twice");
        seen[*id - 1] = 1;
        tour.push_back(static_cast<int>(*id - 1));
      }
    }
    if (static_cast<int>(tour.size()) != n)
      f.fail("TOUR_SECTION has " + std::to_string(tour.size()) + " of " + std::to_string(n) + " cities");
    break;
  }
  if (!section) f.failAt(f.text.size(), "no TOUR_SECTION in the file");
  return tour;
}

}  // namespace jackdaw::tsp
