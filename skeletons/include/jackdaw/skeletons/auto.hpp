// --skeleton auto, the apps' default: seq when the search has one worker on one rank, otherwise
// the parallel skeleton measured to fit its kind on the shipped apps (bench/results/auto_skeleton.md,
// the rule in docs/options.md).
//
//   skeletons::AutoParallel<Optimisation>         the parallel skeleton auto picks for branch and bound
//   skeletons::AutoTable<Decision>                 seq and that one: all a program that runs only auto compiles
//   skeletons::autoChoice<K, Table>(sequential)    the name auto resolves to among Table's skeletons
#pragma once

#include <string_view>
#include <tuple>

#include "jackdaw/core/search_kind.hpp"
#include "jackdaw/skeletons/table.hpp"

namespace jackdaw::skeletons {

inline constexpr std::string_view kAuto = "auto";

// The rule, one row per kind.
template <class K>
struct AutoRule;
template <class E>
struct AutoRule<Enumeration<E>> {
  using type = Budget;
};
template <>
struct AutoRule<Optimisation> {
  using type = Budget;
};
template <>
struct AutoRule<Decision> {
  using type = Budget;
};

template <SearchKind K>
using AutoParallel = typename AutoRule<K>::type;

// Everything auto can run for kind K: compile these and --skeleton auto (and seq, and the one
// parallel skeleton) work, and nothing else is instantiated.
template <SearchKind K>
using AutoTable = Only<Seq, AutoParallel<K>>;

// The skeleton auto runs for kind K among Table's: seq if `sequential` (one worker, one rank, and
// nothing that needs a parallel skeleton) and Table has it; otherwise K's parallel skeleton, or,
// if Table lacks it, Table's first parallel one; seq if Table has no parallel one.
template <SearchKind K, class Table = All>
std::string_view autoChoice(bool sequential) {
  if (sequential && exists<Table>(Seq::name)) return Seq::name;
  if (exists<Table>(AutoParallel<K>::name)) return AutoParallel<K>::name;
  std::string_view first = Seq::name;
  std::apply(
      [&](auto... s) {
        (void)((decltype(s)::parallel ? (first = decltype(s)::name, true) : false) || ...);
      },
      Table{});
  return first;
}

}  // namespace jackdaw::skeletons
