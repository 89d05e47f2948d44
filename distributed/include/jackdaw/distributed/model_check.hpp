// The model contract for searches that may span ranks: the core contract (jackdaw/core/
// model_check.hpp) plus what crosses ranks — a Node, and an Enumeration's enumerator, must be
// serialisable. Checked once at the call, one static_assert naming the requirement.
#pragma once

#include "jackdaw/comm/wire.hpp"
#include "jackdaw/core/model_check.hpp"

namespace jackdaw::distributed {

template <class M, class K, class S, class R, class P>
consteval bool checkModelForRanks() {
  using jackdaw::detail::alwaysFalse;
  if constexpr (!checkModel<M, K, S, R, P>()) {
    return false;
  } else if constexpr (!comm::wire::sendable<typename M::Node>) {
    static_assert(alwaysFalse<M>, "Node crosses ranks: give it `template <class Archive> void serialize(Archive& ar) "
                                  "{ ar(member1, member2); }` (cereal) or make it trivially copyable");
    return false;
  } else if constexpr (!comm::wire::sendable<typename jackdaw::detail::EnumOr<K>::type>) {
    static_assert(alwaysFalse<M>, "Enumeration<E>: E crosses ranks: give it `template <class Archive> void "
                                  "serialize(Archive& ar)` (cereal) or make it trivially copyable");
    return false;
  } else {
    return true;
  }
}

}  // namespace jackdaw::distributed
