// The model contract, checked once at the user's call: one static_assert per requirement, in the
// order a model is written, each message saying what to write. The checks stop at the first
// failure, and the entry points (jackdaw::solve, app::runSearch, skeletons::run) compile nothing
// else when it fails, so the requirement is the first error and no knock-on errors follow.
//
//   if constexpr (!jackdaw::checkModel<M, K, Space, Root, Params>()) return ...;  // already reported
//
// docs/writing-an-app.md has the contract in full.
#pragma once

#include <concepts>
#include <cstddef>
#include <optional>
#include <type_traits>

#include "jackdaw/core/model.hpp"
#include "jackdaw/core/params.hpp"
#include "jackdaw/core/search_kind.hpp"
#include "jackdaw/core/stats.hpp"
#include "jackdaw/core/stop.hpp"

namespace jackdaw {

namespace detail {
template <class...>
inline constexpr bool alwaysFalse = false;

struct NoSuchType {};

template <class M> struct SpaceOr { using type = NoSuchType; };
template <class M> requires requires { typename M::Space; } struct SpaceOr<M> { using type = typename M::Space; };
template <class M> struct NodeOr { using type = NoSuchType; };
template <class M> requires requires { typename M::Node; } struct NodeOr<M> { using type = typename M::Node; };

template <class N> struct ObjOr { using type = long long; };
template <class N> requires HasObjective<N>
struct ObjOr<N> { using type = std::decay_t<decltype(std::declval<const N&>().getObj())>; };

template <class K> struct EnumOr { using type = NoSuchType; };
template <class E> requires std::default_initializable<E> struct EnumOr<Enumeration<E>> { using type = E; };

// What the entry points' signatures use before the model has been checked: the real types when
// they exist, harmless stand-ins when they do not (the check has then said what is missing).
template <class M> using SpaceOrNone = typename SpaceOr<M>::type;
template <class M> using NodeOrNone = typename NodeOr<M>::type;
template <class M> using ParamsOrDefault = SearchParams<typename ObjOr<NodeOrNone<M>>::type>;

// Returned instead of a result when the model failed its check, with the members code using a
// result reads, so the user's own code adds no errors of its own to the one that matters.
template <class M, class K>
struct UncheckedResult {
  typename EnumOr<K>::type enumerator{};
  std::optional<NodeOrNone<M>> best;
  std::optional<typename ObjOr<NodeOrNone<M>>::type> objective;
  SearchStats stats;
  double seconds = 0.0;
  StopReason stop = StopReason::None;
  bool complete() const { return false; }
  bool found() const { return false; }
};
// Enumeration<E>: E's own requirements (every other kind has none).
template <class M, class K, class Space, class Node>
consteval bool checkEnumerator() {
  if constexpr (!isEnumeration<K>) {
    return true;
  } else {
    using E = typename K::EnumeratorType;
    if constexpr (EnumeratorFor<E, Space, Node>) {
      return true;
    } else {
      if constexpr (!std::default_initializable<E>)
        static_assert(alwaysFalse<M>, "Enumeration<E>: E must be default-constructible (each worker starts one)");
      else if constexpr (!requires(E& e, const Node& n) { e.accumulate(n); } &&
                         !AccumulatesWithSpace<E, Space, Node>)
        static_assert(alwaysFalse<M>, "Enumeration<E>: E needs `void accumulate(const Node&)` (or "
                                      "`accumulate(const Space&, const Node&)`), called on every visited node");
      else if constexpr (!requires(E& e, const E& o) { e.combine(o); })
        static_assert(alwaysFalse<M>, "Enumeration<E>: E needs `void combine(const E&)`: adds another worker's part");
      else if constexpr (!requires(const E& e) { e.get(); })
        static_assert(alwaysFalse<M>, "Enumeration<E>: E needs `get() const` returning the result");
      else
        static_assert(alwaysFalse<M>, "Enumeration<E>: E must be copy-constructible");
      return false;
    }
  }
}
}  // namespace detail

namespace detail {
template <class P> inline constexpr bool isSearchParams = false;
template <class O> inline constexpr bool isSearchParams<SearchParams<O>> = true;
template <class P> struct ParamsObj {};
template <class O> struct ParamsObj<SearchParams<O>> { using type = O; };

// Instantiated only when the types differ: the compiler's note under the message names both,
// `Needed` (what getObj() returns) first, `Given` (the params' Obj) second.
template <class Needed, class Given>
struct ObjectiveTypesDiffer {
  static_assert(std::is_same_v<Needed, Given>,
                "the params must be jackdaw::SearchParams<Obj> with Obj exactly the type Node::getObj() returns "
                "(SearchParams<long long> when there is no getObj()); the note below names the type getObj() "
                "returns, then the params' Obj");
  static constexpr bool value = false;
};

// A numChildren member that is not a count (false without one: the generator says hasNext()).
template <class G>
consteval bool countIsNotANumber() {
  if constexpr (requires(G& g) { g.numChildren; })
    return !std::is_convertible_v<decltype(std::declval<G&>().numChildren), std::size_t>;
  else
    return false;
}

// The requirements that do not depend on the search kind, the space, root or params: checked by
// a function of M alone, so a program that searches one model in three kinds gets each of these
// errors once, not three times.
template <class M>
consteval bool checkModelShape() {
  if constexpr (!requires { typename M::Space; }) {
    static_assert(alwaysFalse<M>, "the model needs `using Space = ...;`: the read-only problem data (an empty struct if none)");
    return false;
  } else if constexpr (!requires { typename M::Node; }) {
    static_assert(alwaysFalse<M>, "the model needs `using Node = ...;`: one search state");
    return false;
  } else if constexpr (!requires { typename M::Generator; }) {
    static_assert(alwaysFalse<M>, "the model needs `using Generator = ...;`: the children of a node, one at a time");
    return false;
  } else {
    using Space = typename M::Space;
    using Node = typename M::Node;
    using G = typename M::Generator;
    if constexpr (!SearchNode<Node>) {
      static_assert(alwaysFalse<M>, "Node must be copy-constructible and move-assignable (children are copies)");
      return false;
    } else if constexpr (!std::is_constructible_v<G, const Space&, const Node&> &&
                         !SeesIncumbent<G, Space, Node, typename detail::ObjectiveOf<Node>::type>) {
      static_assert(alwaysFalse<M>, "Generator needs a constructor `Generator(const Space&, const Node& parent)` "
                                    "(or `Generator(const Space&, const Node& parent, jackdaw::IncumbentView<Obj>)`)");
      return false;
    } else if constexpr (requires(G& g) { g.numChildren(); }) {
      static_assert(alwaysFalse<M>, "Generator::numChildren must be a data member, not a function: "
                                    "`std::size_t numChildren = 0;`, set in the constructor");
      return false;
    } else if constexpr (!requires(G& g) { g.numChildren; } && !KnowsNext<G>) {
      if constexpr (requires(G& g) { g.hasNext(); })
        static_assert(alwaysFalse<M>, "Generator::hasNext() must be const (`bool hasNext() const`); a scan it "
                                      "keeps for next() goes in a `mutable` member");
      else
        static_assert(alwaysFalse<M>, "Generator needs a data member `std::size_t numChildren` (how many "
                                      "children next() will return, set in the constructor) or `bool hasNext() "
                                      "const` (whether next() has one more child)");
      return false;
    } else if constexpr (countIsNotANumber<G>()) {
      static_assert(alwaysFalse<M>, "Generator::numChildren must be a count (an integer: `std::size_t numChildren`)");
      return false;
    } else if constexpr (!requires(G& g) { g.next(); }) {
      static_assert(alwaysFalse<M>, "Generator needs `Node next()`: builds and returns the next child");
      return false;
    } else if constexpr (!std::is_same_v<decltype(std::declval<G&>().next()), Node>) {
      static_assert(alwaysFalse<M>, "Generator::next() must return the model's Node by value (`Node next()`)");
      return false;
    } else {
      return true;
    }
  }
}

// Optimisation and Decision (Objective = true) share one instantiation: one error for both.
template <class M, bool Objective>
consteval bool checkObjective() {
  using Space = typename M::Space;
  using Node = typename M::Node;
  if constexpr (Objective && !requires(const Node& n) { n.getObj(); }) {
    static_assert(alwaysFalse<M>, "Optimisation and Decision need `Obj getObj() const` on the Node: the "
                                  "objective to maximise (or minimise with `using Better = std::less<>;`)");
    return false;
  } else if constexpr (Objective && !HasObjective<Node>) {
    static_assert(alwaysFalse<M>, "Node::getObj() must return an ordered value (a number, or a type with <, ==)");
    return false;
  } else if constexpr (!HasBound<M> && requires(M& m, const Space& s, const Node& n) { m.bound(s, n); }) {
    static_assert(alwaysFalse<M>, "Model::bound must be static: `static Obj bound(const Space&, const Node&)`");
    return false;
  } else {
    return true;
  }
}

// What the call passes: the space, the root and the params (the same for every kind searched).
template <class M, class S, class R, class P>
consteval bool checkArguments() {
  if constexpr (!std::is_convertible_v<const S&, const typename M::Space&>) {
    static_assert(alwaysFalse<M>, "the space passed to the search must be the model's Space");
    return false;
  } else if constexpr (!std::is_convertible_v<R, typename M::Node>) {
    static_assert(alwaysFalse<M>, "the root passed to the search must be the model's Node");
    return false;
  } else if constexpr (!isSearchParams<P>) {
    static_assert(alwaysFalse<M>, "the params must be jackdaw::SearchParams<Obj> with Obj exactly the type "
                                  "Node::getObj() returns (SearchParams<long long> when there is no getObj())");
    return false;
  } else if constexpr (!std::is_same_v<P, ParamsOrDefault<M>>) {
    return ObjectiveTypesDiffer<typename ObjOr<typename M::Node>::type, typename ParamsObj<P>::type>::value;
  } else {
    return true;
  }
}
}  // namespace detail

// True if M with kind K, called with a Space S, a root R and params P, meets the contract; else
// a static_assert has reported the first requirement it misses (once per model, however many
// kinds the program searches it in).
template <class M, class K, class S, class R, class P>
consteval bool checkModel() {
  using detail::alwaysFalse;
  if constexpr (!SearchKind<K>) {
    static_assert(alwaysFalse<M>, "the search kind must be jackdaw::Enumeration<E>, jackdaw::Optimisation or jackdaw::Decision");
    return false;
  } else if constexpr (!detail::checkModelShape<M>()) {
    return false;
  } else if constexpr (!detail::checkObjective<M, usesIncumbent<K>>()) {
    return false;
  } else if constexpr (!detail::checkEnumerator<M, K, typename M::Space, typename M::Node>()) {
    return false;
  } else {
    return detail::checkArguments<M, S, R, P>();
  }
}

}  // namespace jackdaw
