// Bytes for what crosses ranks: tasks (node, depth, priority) and per-rank results.
//
// A model says how its Node (and its enumerator) are written in one place: a cereal
// `template <class Archive> void serialize(Archive&)`. A trivially copyable type without one is
// sent as raw bytes — safe because every rank of a job runs the same executable.
#pragma once

#include <cstddef>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <cereal/archives/binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>

namespace jackdaw::detail {

template <class T>
concept CerealSerialisable = requires(T& t, cereal::BinaryOutputArchive& out, cereal::BinaryInputArchive& in) {
  t.serialize(out);
  t.serialize(in);
};

// Writes / reads one value: its serialize(), a cereal-known type, or raw bytes.
template <class Archive, class T>
void transfer(Archive& ar, T& v) {
  if constexpr (CerealSerialisable<T> || std::is_arithmetic_v<T>) {
    ar(v);
  } else {
    static_assert(std::is_trivially_copyable_v<T>,
                  "a Node or enumerator that crosses ranks needs `template <class Archive> void serialize(Archive&)` "
                  "(cereal) or must be trivially copyable");
    ar(cereal::binary_data(&v, sizeof(T)));
  }
}

inline std::vector<std::byte> toBytes(const std::string& s) {
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  return {p, p + s.size()};
}

inline std::string fromBytes(std::span<const std::byte> b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

}  // namespace jackdaw::detail
