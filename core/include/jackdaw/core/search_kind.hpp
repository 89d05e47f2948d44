// The three kinds of search. A skeleton is instantiated with a model and one of these:
//   jackdaw::Enumeration<MyCounter>   visit every node, fold them with an enumerator monoid
//   jackdaw::Optimisation             find a node with the best getObj() (branch and bound)
//   jackdaw::Decision                 find a node whose getObj() reaches params.expectedObjective
#pragma once

#include <type_traits>

namespace jackdaw {

template <class E>
struct Enumeration {
  using EnumeratorType = E;
};
struct Optimisation {};
struct Decision {};

template <class K> struct IsEnumeration : std::false_type {};
template <class E> struct IsEnumeration<Enumeration<E>> : std::true_type {};

template <class K> inline constexpr bool isEnumeration = IsEnumeration<K>::value;
template <class K> inline constexpr bool isOptimisation = std::is_same_v<K, Optimisation>;
template <class K> inline constexpr bool isDecision = std::is_same_v<K, Decision>;
template <class K> inline constexpr bool usesIncumbent = isOptimisation<K> || isDecision<K>;

template <class K>
concept SearchKind = isEnumeration<K> || isOptimisation<K> || isDecision<K>;

}  // namespace jackdaw
