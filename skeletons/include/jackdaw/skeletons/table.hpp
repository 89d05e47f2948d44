// The skeleton table: the one list of Jackdaw's skeletons. Code that picks a skeleton at run time
// (the apps' --skeleton, the library API) runs it by name with one Settings; the table maps those
// settings onto each skeleton's own Options. A new skeleton is its header plus one row in `All`
// (a ParallelRow with its name, options() and run(), below).
//
//   jackdaw::skeletons::Settings s;  s.parallel.runtime.threads = 4;  s.budget = 10000;
//   auto r = jackdaw::skeletons::run<M, K>("budget", space, root, params, stop, s);
//   for (auto n : jackdaw::skeletons::names()) ...      // seq, depth_bounded, budget, …
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "jackdaw/core/model_check.hpp"
#include "jackdaw/skeletons/budget.hpp"
#include "jackdaw/skeletons/depth_bounded.hpp"
#include "jackdaw/skeletons/ordered.hpp"
#include "jackdaw/skeletons/seq.hpp"
#include "jackdaw/skeletons/stack_stealing.hpp"

namespace jackdaw::skeletons {

// Everything a command line can say about skeletons; each skeleton reads its own part.
struct Settings {
  ParallelOptions parallel{};     // workers, binding, reports, observers (every parallel skeleton)
  int spawnDepth = 2;             // depth_bounded, ordered (-d)
  std::uint64_t budget = 100000;  // budget (-b)
  bool spawnDepthAuto = false;    // depth_bounded (-d auto): the cutoff deepens from spawnDepth
  bool budgetAuto = false;        // budget (-b auto): each worker picks its budget
  double grainTargetSeconds = GrainOptions{}.targetSeconds;  // what the automatic grain aims at
  bool chunked = false;           // stack_stealing (--chunked)
  bool discrepancy = false;       // ordered (--discrepancy)
};

struct Seq {
  static constexpr std::string_view name = "seq";
  static constexpr bool parallel = false;
  template <SearchModel M, SearchKind K, class Launch>
  static SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                                   const typename SearchTypes<M, K>::Params& params, StopFlag& stop,
                                   const Settings& s, Launch&& launch) {
    // A launch that spans processes says so; seq cannot follow it there.
    if constexpr (requires { launch.spansProcesses(); })
      if (launch.spansProcesses()) throw std::invalid_argument("skeleton seq runs on one process; choose a parallel skeleton");
    return seq::search<M, K>(space, std::move(root), params, stop, s.parallel.live);
  }
};

// A parallel row: how Settings become the skeleton's Options (options()) and the call (run()).
template <class Row>
struct ParallelRow {
  static constexpr bool parallel = true;
  template <SearchModel M, SearchKind K, class Launch>
  static SearchResult<M, K> search(const typename M::Space& space, typename M::Node root,
                                   const typename SearchTypes<M, K>::Params& params, StopFlag& stop,
                                   const Settings& s, Launch&& launch) {
    return Row::template run<M, K>(space, std::move(root), params, stop, Row::options(s), std::forward<Launch>(launch));
  }
};

struct DepthBounded : ParallelRow<DepthBounded> {
  static constexpr std::string_view name = "depth_bounded";
  static depth_bounded::Options options(const Settings& s) {
    depth_bounded::Options o{s.parallel};
    o.spawnDepth = s.spawnDepth;
    o.grain = {s.spawnDepthAuto, s.grainTargetSeconds};
    return o;
  }
  template <SearchModel M, SearchKind K, class... A>
  static SearchResult<M, K> run(A&&... a) { return depth_bounded::search<M, K>(std::forward<A>(a)...); }
};

struct Budget : ParallelRow<Budget> {
  static constexpr std::string_view name = "budget";
  static budget::Options options(const Settings& s) {
    budget::Options o{s.parallel};
    o.budget = s.budget;
    o.grain = {s.budgetAuto, s.grainTargetSeconds};
    return o;
  }
  template <SearchModel M, SearchKind K, class... A>
  static SearchResult<M, K> run(A&&... a) { return budget::search<M, K>(std::forward<A>(a)...); }
};

struct StackStealing : ParallelRow<StackStealing> {
  static constexpr std::string_view name = "stack_stealing";
  static stack_stealing::Options options(const Settings& s) {
    stack_stealing::Options o{s.parallel};
    o.chunked = s.chunked;
    return o;
  }
  template <SearchModel M, SearchKind K, class... A>
  static SearchResult<M, K> run(A&&... a) { return stack_stealing::search<M, K>(std::forward<A>(a)...); }
};

struct Ordered : ParallelRow<Ordered> {
  static constexpr std::string_view name = "ordered";
  static ordered::Options options(const Settings& s) {
    ordered::Options o{s.parallel};
    o.spawnDepth = s.spawnDepth;
    o.discrepancy = s.discrepancy;
    return o;
  }
  template <SearchModel M, SearchKind K, class... A>
  static SearchResult<M, K> run(A&&... a) { return ordered::search<M, K>(std::forward<A>(a)...); }
};

inline std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : ", ") + x;
  return out;
}

// The table.
using All = std::tuple<Seq, DepthBounded, Budget, StackStealing, Ordered>;

// A program that needs fewer skeletons names them, and only those are compiled (each skeleton
// instantiated for a model costs compile time and memory):
//   skeletons::run<M, K, skeletons::Only<skeletons::Budget>>("budget", ...);
template <class... Rows>
using Only = std::tuple<Rows...>;

template <class Table = All>
std::vector<std::string> names() {
  return std::apply([](auto... s) { return std::vector<std::string>{std::string(decltype(s)::name)...}; }, Table{});
}

template <class Table = All>
bool exists(std::string_view name) {
  return std::apply([&](auto... s) { return ((decltype(s)::name == name) || ...); }, Table{});
}

template <class Table = All>
bool isParallel(std::string_view name) {
  return std::apply([&](auto... s) { return ((decltype(s)::name == name && decltype(s)::parallel) || ...); }, Table{});
}

// Runs the skeleton called `name` from Table; std::invalid_argument for a name not in it. The
// model is checked here first (core/model_check.hpp): a mistake is one static_assert.
template <class M, class K, class Table = All, class S = jackdaw::detail::SpaceOrNone<M>,
          class R = jackdaw::detail::NodeOrNone<M>,
          class P = jackdaw::detail::ParamsOrDefault<M>, class Launch = detail::LocalLaunch>
auto run(std::string_view name, const S& space, R root, const P& params, StopFlag& stop, const Settings& s,
         Launch&& launch = {}) {
  if constexpr (!checkModel<M, K, S, R, P>()) {
    return jackdaw::detail::UncheckedResult<M, K>{};
  } else {
    std::optional<SearchResult<M, K>> r;
    typename M::Node start(std::move(root));
    std::apply(
        [&](auto... sk) {
          (void)((decltype(sk)::name == name
                      ? (r.emplace(decltype(sk)::template search<M, K>(space, std::move(start), params, stop, s, launch)),
                         true)
                      : false) ||
                 ...);
        },
        Table{});
    if (!r) {
      if (exists(name))
        throw std::invalid_argument("skeleton '" + std::string(name) + "' is not among those this program was built "
                                    "with: " + join(names<Table>()));
      throw std::invalid_argument("unknown skeleton '" + std::string(name) + "'");
    }
    return std::move(*r);
  }
}

}  // namespace jackdaw::skeletons
