#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "jackdaw/comm/board_record.hpp"
#include "sim_time.hpp"

namespace jackdaw::sim::detail {

constexpr double kRecordBytes = comm::kRecordCells * 8;  // a board record (comm/board_record.hpp)

// What the ranks have published, as the board's scheme lets a reader see it. Scheme all: a record
// reaches every window one network delay after it is published (4·(P−1) puts per publish).
// Scheme sample: it stays in its owner's window until a thief reads it there (3 round trips).
class Board {
 public:
  Board(int ranks, double delayS) : delayS_(delayS), history_(static_cast<std::size_t>(ranks)), current_(static_cast<std::size_t>(ranks)) {}
  void publish(int r, const comm::RankRecord& rec) {
    current_[static_cast<std::size_t>(r)] = rec;
    history_[static_cast<std::size_t>(r)].push_back({nowS() + delayS_, rec});
  }
  // The newest record of r that has reached the other windows by now.
  std::optional<comm::RankRecord> pushed(int r) {
    auto& h = history_[static_cast<std::size_t>(r)];
    const double t = nowS();
    while (h.size() > 1 && h[1].first <= t) h.pop_front();
    if (h.empty() || h.front().first > t) return std::nullopt;
    return h.front().second;
  }
  // At the owner (a one-sided read): the latest.
  std::optional<comm::RankRecord> atOwner(int r) const { return current_[static_cast<std::size_t>(r)]; }

 private:
  double delayS_;
  std::vector<std::deque<std::pair<double, comm::RankRecord>>> history_;
  std::vector<std::optional<comm::RankRecord>> current_;
};

}  // namespace jackdaw::sim::detail
