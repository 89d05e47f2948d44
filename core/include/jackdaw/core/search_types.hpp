// Types derived from a (model, kind) pair, so skeletons name them once.
#pragma once

#include <type_traits>
#include <utility>

#include "jackdaw/core/incumbent.hpp"
#include "jackdaw/core/model.hpp"
#include "jackdaw/core/params.hpp"
#include "jackdaw/core/search_kind.hpp"

namespace jackdaw {

struct NoEnumerator {
  template <class N> void accumulate(const N&) {}
  void combine(const NoEnumerator&) {}
  int get() const { return 0; }
};

namespace detail {
template <class K> struct EnumeratorOf { using type = NoEnumerator; };
template <class E> struct EnumeratorOf<Enumeration<E>> { using type = E; };
}  // namespace detail

template <SearchModel M, SearchKind K>
struct SearchTypes {
  using Kind = K;
  using Traits = ModelTraits<M>;
  using Space = typename Traits::Space;
  using Node = typename Traits::Node;
  using Generator = typename Traits::Generator;
  using Better = typename Traits::Better;
  using Obj = typename detail::ObjectiveOf<Node>::type;
  using Enum = typename detail::EnumeratorOf<K>::type;
  using IncumbentT = Incumbent<Node, Obj, Better>;
  using Params = SearchParams<Obj>;

  static_assert(!usesIncumbent<K> || HasObjective<Node>,
                "Optimisation and Decision search need Node::getObj() returning an ordered objective");
  static_assert(!isEnumeration<K> || EnumeratorFor<Enum, Space, Node>,
                "Enumeration<E>: E must have accumulate(const Node&), combine(const E&) and get()");
};

}  // namespace jackdaw
