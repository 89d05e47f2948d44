// Picks the bitset width for a graph at run time: the smallest supported Words with
// 64 * Words >= vertices, passed to a generic callable as std::integral_constant.
//
//   return jackdaw::maxclique::withWordsFor(g.n, [&](auto words) {
//     using M = jackdaw::maxclique::MaxClique<decltype(words)::value>;
//     ...
//   });
//
// Widths are powers of two up to 64 words (4096 vertices): each width is one more
// instantiation of every skeleton, so the set is kept small. Larger graphs are an InputError.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include "jackdaw/core/errors.hpp"

namespace jackdaw::maxclique {

inline constexpr int maxSupportedVertices = 64 * 64;

template <class F>
decltype(auto) withWordsFor(int vertices, F&& f) {
  using std::integral_constant;
  if (vertices <= 64) return f(integral_constant<std::size_t, 1>{});
  if (vertices <= 128) return f(integral_constant<std::size_t, 2>{});
  if (vertices <= 256) return f(integral_constant<std::size_t, 4>{});
  if (vertices <= 512) return f(integral_constant<std::size_t, 8>{});
  if (vertices <= 1024) return f(integral_constant<std::size_t, 16>{});
  if (vertices <= 2048) return f(integral_constant<std::size_t, 32>{});
  if (vertices <= maxSupportedVertices) return f(integral_constant<std::size_t, 64>{});
  throw InputError("graph has " + std::to_string(vertices) + " vertices; this build supports at most " +
                   std::to_string(maxSupportedVertices));
}

}  // namespace jackdaw::maxclique
