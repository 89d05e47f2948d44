// A model's objective on the load board's int64 bound cell, and the board's sense from the
// model's order. Doubles keep their order through comm::encodeDouble.
#pragma once

#include <cstdint>
#include <functional>
#include <type_traits>

#include "jackdaw/comm/board.hpp"

namespace jackdaw::distributed {

template <class Obj>
std::int64_t encodeObjective(const Obj& o) {
  if constexpr (std::is_floating_point_v<Obj>) return comm::encodeDouble(static_cast<double>(o));
  else return static_cast<std::int64_t>(o);
}

template <class Obj>
Obj decodeObjective(std::int64_t v) {
  if constexpr (std::is_floating_point_v<Obj>) return static_cast<Obj>(comm::decodeDouble(v));
  else return static_cast<Obj>(v);
}

template <class Better>
comm::BoundSense boundSense() {
  if constexpr (std::is_same_v<Better, std::less<>>) return comm::BoundSense::Minimise;
  else {
    static_assert(std::is_same_v<Better, std::greater<>>,
                  "distributed search supports Better = std::greater<> (maximise) or std::less<> (minimise)");
    return comm::BoundSense::Maximise;
  }
}

}  // namespace jackdaw::distributed
