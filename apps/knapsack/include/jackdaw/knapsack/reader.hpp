// Readers for the three knapsack file formats in instances/knapsack/.
//
//   auto inst = jackdaw::knapsack::readInstance("f1_l-d_kp_10_269");                 // format detected
//   auto inst = jackdaw::knapsack::readInstance("knapPI_1_50_1000.csv", Format::Pisinger, "knapPI_1_50_1000_7");
//
// Formats:
//   yewpar    line 1 capacity, line 2 expected optimum, then one `profit weight` line per item
//   kp01      (instances_01_KP) `n capacity`, then n `profit weight` lines; one trailing line of
//             0/1 values (the large-scale files' optimal solution vector) is ignored
//   pisinger  CSV blocks: name / n N / c C / z Z / time T / N lines `i,p,w,x` / -----
// Detection: a first token that is not a number means pisinger; else one number on the first
// line means yewpar, two mean kp01. Every error is a jackdaw::InputError naming file:line.
//
// Limits (instance.hpp): profits, weights, the capacity and a stated optimum are finite, not
// negative and at most kMaxValue (2^53 - 1); the profits add up to at most kMaxValue; an item count is
// a whole number up to kMaxItems. The file must be a regular file and, with the items it holds
// (kBytesPerItem each), fit `memoryLimit`.
#pragma once

#include <cstdint>
#include <string>

#include "jackdaw/core/memory_budget.hpp"
#include "jackdaw/knapsack/instance.hpp"

namespace jackdaw::knapsack {

enum class Format { Auto, YewPar, Kp01, Pisinger };

// Throws InputError for an unknown name.
Format parseFormat(const std::string& name);

// `instanceName` selects a Pisinger block; it is required when the file holds more than one.
// `memoryLimit`: bytes (the apps pass --memory-limit).
Instance readInstance(const std::string& path, Format format = Format::Auto, const std::string& instanceName = "",
                      std::uint64_t memoryLimit = defaultMemoryLimitBytes());

}  // namespace jackdaw::knapsack
