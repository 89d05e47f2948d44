// When a simulated job's workers were busy, not only how much: busy worker time in fine bins of
// simulated time, reported as the busy share per interval and the run's shape (when half the
// workers were first busy, from when on fewer than half of them were). At a thousand ranks the
// makespan is often decided after the ramp-up, by an end game in which a few ranks hold the last
// work and the rest look for it; this shows which.
//
//   Utilisation u;                   // 100 µs bins
//   u.add(t0, t1);                   // a worker was busy from t0 to t1 (seconds since the start)
//   json j = u.report(workers, end); // "simulation.utilisation" of jackdaw-sim's output
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace jackdaw::sim {

class Utilisation {
 public:
  explicit Utilisation(double binS = 1e-4) : binS_(binS) {}

  void add(double from, double to) {
    if (!(to > from)) return;
    from = std::max(from, 0.0);
    auto i = static_cast<std::size_t>(from / binS_);
    const auto last = static_cast<std::size_t>(to / binS_);
    if (busy_.size() <= last) busy_.resize(last + 1, 0.0);
    for (; i <= last; ++i) {
      const double lo = std::max(from, static_cast<double>(i) * binS_);
      const double hi = std::min(to, static_cast<double>(i + 1) * binS_);
      if (hi > lo) busy_[i] += hi - lo;
    }
  }

  // `workers` of the job over [0, end): at most `maxBins` intervals of equal width (whole fine
  // bins), each with its busy share; and, from the fine bins, the first time half the workers
  // were busy and the time from which they never were again (null if they never were).
  nlohmann::json report(double workers, double end, std::size_t maxBins = 100) const {
    const auto fine = static_cast<std::size_t>(std::ceil(std::max(end, 0.0) / binS_));
    const std::size_t per = std::max<std::size_t>(1, (fine + maxBins - 1) / std::max<std::size_t>(maxBins, 1));
    // Fine bins [from, to) as time, the last one cut at `end`: its start and its width.
    const auto span = [&](std::size_t from, std::size_t to) {
      const double lo = static_cast<double>(from) * binS_;
      return std::pair{lo, std::min(static_cast<double>(to) * binS_, end) - lo};
    };
    nlohmann::json shares = nlohmann::json::array();
    for (std::size_t b = 0; b < fine; b += per) {
      double busy = 0;
      for (std::size_t i = b; i < std::min(b + per, fine); ++i) busy += at(i);
      const double width = span(b, b + per).second;
      shares.push_back(width > 0 && workers > 0 ? busy / (workers * width) : 0.0);
    }
    nlohmann::json firstHalf = nullptr, halfUntil = nullptr;
    for (std::size_t i = 0; i < fine; ++i) {
      const auto [lo, width] = span(i, i + 1);
      if (width <= 0 || workers <= 0 || at(i) < 0.5 * workers * width) continue;
      if (firstHalf.is_null()) firstHalf = lo;
      halfUntil = lo + width;
    }
    return {{"bin_s", static_cast<double>(per) * binS_},
            {"busy_share", shares},
            {"half_busy_first_s", firstHalf},
            {"half_busy_until_s", halfUntil}};
  }

 private:
  double at(std::size_t i) const { return i < busy_.size() ? busy_[i] : 0.0; }
  double binS_;
  std::vector<double> busy_;
};

}  // namespace jackdaw::sim
