// Strict checks for numeric command-line options (CLI11 validators), shared by the apps and
// jackdaw-sim. CLI11's own conversion and Range let through what a user never means: "nan" (every
// comparison with nan is false, so it passes any range), "-1" for an unsigned option (it wraps to
// 2^64 - 1), " -5", an empty value (read as 0), and hexadecimal. These accept only plain decimal
// numbers inside the range and say so otherwise; CLI11 then exits with the option's name.
//
//   app.add_option("--threads", o.threads)->check(cli::whole(0, 4096));
//   app.add_option("--watchdog", o.watchdogSeconds)->check(cli::real(0.0, 1e6));
//   app.add_option("--memory-limit", text)->check(cli::bytes(1 << 20, 1ULL << 50));
#pragma once

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <CLI/CLI.hpp>

namespace jackdaw::comm::cli {

// A whole number written as decimal digits, '-' first only for a signed type; nullopt for
// anything else, overflow included.
template <class T>
std::optional<T> parseWhole(std::string_view s) {
  static_assert(std::is_integral_v<T>);
  if (s.empty() || (s[0] == '-' && !std::is_signed_v<T>)) return std::nullopt;
  if (s[0] == '+' || (s[0] == '-' && s.size() == 1)) return std::nullopt;
  T x{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x, 10);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return x;
}

// A finite decimal real number (1e400 overflows: refused); nullopt for anything else.
inline std::optional<double> parseReal(std::string_view s) {
  if (s.empty() || s.size() > 64) return std::nullopt;
  for (char c : s)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
      return std::nullopt;  // no blanks, no hex, no "nan" or "inf"
  const std::string text(s);
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(x)) return std::nullopt;
  return x;
}

// A size in bytes: a whole number with an optional binary suffix K, M, G or T (e.g. 512M, 12G).
inline std::optional<std::uint64_t> parseBytes(std::string_view s) {
  std::uint64_t scale = 1;
  if (!s.empty()) {
    switch (s.back()) {
      case 'K': case 'k': scale = 1ULL << 10; break;
      case 'M': case 'm': scale = 1ULL << 20; break;
      case 'G': case 'g': scale = 1ULL << 30; break;
      case 'T': case 't': scale = 1ULL << 40; break;
      default: break;
    }
    if (scale != 1) s.remove_suffix(1);
  }
  const auto n = parseWhole<std::uint64_t>(s);
  if (!n || *n > std::numeric_limits<std::uint64_t>::max() / scale) return std::nullopt;
  return *n * scale;
}

template <class T>
std::string rangeText(T lo, T hi) {
  if constexpr (std::is_floating_point_v<T>) {
    const auto f = [](T v) {
      char b[32];
      std::snprintf(b, sizeof b, "%.6g", static_cast<double>(v));
      return std::string(b);
    };
    return "[" + f(lo) + ", " + f(hi) + "]";
  } else {
    return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  }
}

template <class T>
CLI::Validator whole(T lo, T hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        const auto x = parseWhole<T>(v);
        if (!x || *x < lo || *x > hi) return "'" + v.substr(0, 40) + "' is not a whole number in " + rangeText(lo, hi);
        return {};
      },
      "INT in " + rangeText(lo, hi));
}

inline CLI::Validator real(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        const auto x = parseReal(v);
        if (!x || *x < lo || *x > hi) return "'" + v.substr(0, 40) + "' is not a number in " + rangeText(lo, hi);
        return {};
      },
      "NUMBER in " + rangeText(lo, hi));
}

inline CLI::Validator bytes(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        const auto x = parseBytes(v);
        if (!x || *x < lo || *x > hi)
          return "'" + v.substr(0, 40) + "' is not a size in bytes (a whole number, optionally with K, M, G or T) in " +
                 rangeText(lo, hi);
        return {};
      },
      "SIZE");
}

}  // namespace jackdaw::comm::cli
