// The model contract for searches that may span ranks: the core contract (jackdaw/core/
// model_check.hpp) plus what crossing ranks needs — a default-constructible, serialisable Node
// (and enumerator), a numeric objective and a maximise/minimise order for the shared bound.
// Checked once at the call, one static_assert naming the requirement.
#pragma once

#include <concepts>
#include <functional>
#include <type_traits>

#include "jackdaw/comm/wire.hpp"
#include "jackdaw/core/model_check.hpp"

namespace jackdaw::distributed {

namespace detail {
// What crossing ranks asks of the model alone: checked by a function of M only, so a program that
// searches one model in several kinds gets each of these errors once.
template <class M>
consteval bool checkModelShapeForRanks() {
  using jackdaw::detail::alwaysFalse;
  if constexpr (!std::default_initializable<typename M::Node>) {
    static_assert(alwaysFalse<M>, "Node must be default-constructible: work that crosses ranks or is resumed from "
                                  "a checkpoint is read into a default-made Node");
    return false;
  } else if constexpr (!std::is_same_v<typename ModelTraits<M>::Better, std::greater<>> &&
                       !std::is_same_v<typename ModelTraits<M>::Better, std::less<>>) {
    static_assert(alwaysFalse<M>, "Model::Better must be std::greater<> (maximise, the default) or std::less<> "
                                  "(minimise): the bound shared between ranks is kept in that order");
    return false;
  } else if constexpr (!std::is_arithmetic_v<typename jackdaw::detail::ObjOr<typename M::Node>::type>) {
    static_assert(alwaysFalse<M>, "Node::getObj() must return a number (integer or floating point): the bound "
                                  "shared between ranks travels as a 64-bit value");
    return false;
  } else if constexpr (!comm::wire::sendable<typename M::Node>) {
    static_assert(alwaysFalse<M>, "Node crosses ranks: give it `template <class Archive> void serialize(Archive& ar) "
                                  "{ ar(member1, member2); }` (cereal) or make it trivially copyable");
    return false;
  } else {
    return true;
  }
}
}  // namespace detail

template <class M, class K, class S, class R, class P>
consteval bool checkModelForRanks() {
  using jackdaw::detail::alwaysFalse;
  if constexpr (!checkModel<M, K, S, R, P>()) {
    return false;
  } else if constexpr (!detail::checkModelShapeForRanks<M>()) {
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
