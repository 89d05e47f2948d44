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

#if defined(__x86_64__) || defined(__i386__)
namespace {
bool bmiToo() {
  return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}
}  // namespace
#endif

bool cpuHas(Simd s) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  switch (s) {
    case Simd::Scalar: return true;
    case Simd::Sse2: return __builtin_cpu_supports("sse2");
    // The Avx2 and Avx512 kernels are compiled with BMI1/BMI2 and POPCNT as well (kernels.hpp).
    case Simd::Avx2: return __builtin_cpu_supports("avx2") && bmiToo();
    case Simd::Avx512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && bmiToo();
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
