// Runs a search body once per (instruction set, node size), chosen at run time.
//
//   auto out = jackdaw::ns::withModel(simd, genus, [&]<class M>() {
//     jackdaw::SearchParams<long long> p; p.maxDepth = genus;
//     return summarise(jackdaw::seq::search<M, jackdaw::ns::Kind>({}, M::root(), p));
//   });
//
// The body must return the same type for every M. Each variant's entry point carries the
// variant's gnu::target and gnu::flatten, so the engine, the generator and the kernels are
// inlined into one function compiled for that instruction set: the hot loop makes no calls and
// no shared inline code is compiled with different flags (no ODR hazard). The parallel
// skeletons' tasks reach the same flattened loop through Model::hot (model.hpp).
#pragma once

#include <stdexcept>
#include <string>

#include "jackdaw/ns/model.hpp"
#include "jackdaw/ns/simd.hpp"

namespace jackdaw::ns {

inline constexpr int kMaxGenus = Node<256>::maxGenus;

// The smallest node size that holds this genus.
inline int nodeSizeFor(int genus) { return genus <= Node<128>::maxGenus ? 128 : 256; }

namespace detail {
template <int Size, class Body>
[[gnu::flatten]] auto inScalar(Body& body) { return body.template operator()<Model<Scalar, Size>>(); }
#ifdef JACKDAW_NS_X86
template <int Size, class Body>
[[gnu::flatten]] auto inSse2(Body& body) { return body.template operator()<Model<Sse2, Size>>(); }
template <int Size, class Body>
[[gnu::target(JACKDAW_NS_AVX2_TARGET), gnu::flatten]] auto inAvx2(Body& body) { return body.template operator()<Model<Avx2, Size>>(); }
template <int Size, class Body>
[[gnu::target(JACKDAW_NS_AVX512_TARGET), gnu::flatten]] auto inAvx512(Body& body) {
  return body.template operator()<Model<Avx512, Size>>();
}
#endif

template <int Size, class Body>
auto withSized(Simd s, Body& body) {
  if (!cpuHas(s)) throw std::invalid_argument(std::string("this CPU cannot run the ") + toString(s) + " kernels");
  switch (s) {
#ifdef JACKDAW_NS_X86
    case Simd::Sse2: return inSse2<Size>(body);
    case Simd::Avx2: return inAvx2<Size>(body);
    case Simd::Avx512: return inAvx512<Size>(body);
#endif
    default: return inScalar<Size>(body);
  }
}
}  // namespace detail

// Calls body.template operator()<Model<Isa, Size>>() for the variant s and the smallest Size
// that holds `genus` (forceSize 128 or 256 overrides). Throws std::invalid_argument if the CPU
// lacks s or the genus is out of range.
template <class Body>
auto withModel(Simd s, int genus, Body&& body, int forceSize = 0) {
  if (genus < 0 || genus > kMaxGenus) throw std::invalid_argument("genus must be in 0.." + std::to_string(kMaxGenus));
  const int size = forceSize ? forceSize : nodeSizeFor(genus);
  if (size == 128 && genus <= Node<128>::maxGenus) return detail::withSized<128>(s, body);
  if (size == 256) return detail::withSized<256>(s, body);
  throw std::invalid_argument("node size " + std::to_string(size) + " cannot hold genus " + std::to_string(genus));
}

}  // namespace jackdaw::ns
