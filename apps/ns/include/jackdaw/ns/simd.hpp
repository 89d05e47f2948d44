// Which kernel variant to run: the best one the CPU has, or one forced by name (--simd).
//
//   auto s = jackdaw::ns::parseSimd("auto");   // std::nullopt for an unknown name
//   if (!jackdaw::ns::cpuHas(*s)) ...           // refuse a variant this CPU lacks
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace jackdaw::ns {

enum class Simd { Scalar, Sse2, Avx2, Avx512 };

// "auto" resolves to bestSimd(); otherwise scalar | sse2 | avx2 | avx512.
std::optional<Simd> parseSimd(const std::string& name);
const char* toString(Simd s);
bool cpuHas(Simd s);            // checked with __builtin_cpu_supports
Simd bestSimd();                // the widest variant the CPU has
std::vector<Simd> cpuVariants();  // every variant the CPU can run, narrowest first

}  // namespace jackdaw::ns
