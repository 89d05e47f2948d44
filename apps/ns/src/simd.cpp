#include "jackdaw/ns/simd.hpp"

namespace jackdaw::ns {

std::optional<Simd> parseSimd(const std::string& name) {
  if (name == "auto") return bestSimd();
  for (Simd s : {Simd::Scalar, Simd::Sse2, Simd::Avx2, Simd::Avx512})
    if (name == toString(s)) return s;
  return std::nullopt;
}

const char* toString(Simd s) {
  switch (s) {
    case Simd::Scalar: return "scalar";
    case Simd::Sse2: return "sse2";
    case Simd::Avx2: return "avx2";
    case Simd::Avx512: return "avx512";
  }
  return "?";
}

bool cpuHas(Simd s) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  switch (s) {
    case Simd::Scalar: return true;
    case Simd::Sse2: return __builtin_cpu_supports("sse2");
    case Simd::Avx2: return __builtin_cpu_supports("avx2");
    case Simd::Avx512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  }
  return false;
#else
  return s == Simd::Scalar;
#endif
}

Simd bestSimd() {
  for (Simd s : {Simd::Avx512, Simd::Avx2, Simd::Sse2})
    if (cpuHas(s)) return s;
  return Simd::Scalar;
}

std::vector<Simd> cpuVariants() {
  std::vector<Simd> v;
  for (Simd s : {Simd::Scalar, Simd::Sse2, Simd::Avx2, Simd::Avx512})
    if (cpuHas(s)) v.push_back(s);
  return v;
}

}  // namespace jackdaw::ns
