// Checked builds verify the generator contract as the engine runs: numChildren is set once (in the
// constructor) and, if the Generator can say whether it has another child (optional member
// `bool hasNext() const`), next() is never called when it has none (numChildren over-counts) and
// no generator runs out of calls while it still has one (numChildren under-counts). A generator
// with hasNext() and no numChildren must give the same answer when asked twice. A breach throws
// ModelError naming the model, which the skeletons report like any model failure.
//
// On with -DJACKDAW_CHECK_MODELS=ON (CMake) or in any build without NDEBUG (Debug); off, every
// check compiles to nothing.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>
#include <typeinfo>

#if defined(__GNUG__)
#include <cxxabi.h>
#endif

#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/model.hpp"

#ifndef JACKDAW_CHECK_MODELS
#ifdef NDEBUG
#define JACKDAW_CHECK_MODELS 0
#else
#define JACKDAW_CHECK_MODELS 1
#endif
#endif

namespace jackdaw {

inline constexpr bool kCheckModels = JACKDAW_CHECK_MODELS;

// The readable name of a type (the model's, in messages).
template <class T>
std::string typeName() {
  const char* raw = typeid(T).name();
#if defined(__GNUG__)
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(raw, nullptr, nullptr, &status), std::free);
  if (status == 0 && d) return d.get();
#endif
  return raw;
}

template <class M>
struct GeneratorCheck {
  using G = typename M::Generator;

  [[noreturn]] static void fail(const std::string& what) {
    throw ModelError("model " + typeName<M>() + ": " + what);
  }
  // Before the (taken+1)-th call of next() on a generator that declared `declared` children.
  // A generator without numChildren has just told the engine hasNext(): asked again, it must agree
  // (it may move its own mutable scan, never change what next() gives).
  static void beforeNext(const G& g, std::size_t declared, std::size_t taken) {
    if constexpr (kCheckModels && !CountsChildren<G>) {
      if (!g.hasNext())
        fail("hasNext() said true and then false before child " + std::to_string(taken + 1) +
             " with no next() between; it must answer the same until next() is called");
    } else if constexpr (kCheckModels) {
      if (static_cast<std::size_t>(g.numChildren) != declared)
        fail("Generator::numChildren changed from " + std::to_string(declared) + " to " +
             std::to_string(static_cast<std::size_t>(g.numChildren)) +
             " after construction; set it once, in the constructor");
      if constexpr (KnowsNext<G>)
        if (!g.hasNext())
          fail("numChildren = " + std::to_string(declared) + " but hasNext() is false before child " +
               std::to_string(taken + 1) + ": numChildren over-counts the children");
    }
  }
  // countChildrenOfNext() said `counted` for child `index`, whose own generator, built, says `built`.
  static void childCount(std::size_t counted, std::size_t built, std::size_t index) {
    if constexpr (kCheckModels)
      if (counted != built)
        fail("countChildrenOfNext() = " + std::to_string(counted) + " for child " + std::to_string(index + 1) +
             ", but that child's Generator has numChildren = " + std::to_string(built));
  }
  // dropLeaves() returned `dropped` on a generator that had `all` children and has `left`; `leaves`
  // of those children, built, have no children of their own.
  static void droppedLeaves(std::size_t all, std::size_t left, std::size_t dropped, std::size_t leaves) {
    if constexpr (kCheckModels) {
      if (left + dropped != all)
        fail("dropLeaves() returned " + std::to_string(dropped) + " but numChildren went from " +
             std::to_string(all) + " to " + std::to_string(left) + "; lower numChildren by what it returns");
      if (dropped > leaves)
        fail("dropLeaves() dropped " + std::to_string(dropped) + " children but only " + std::to_string(leaves) +
             " of the " + std::to_string(all) + " have no children of their own");
    }
  }
  // After `declared` calls of next(): the generator must have no more.
  static void atEnd(const G& g, std::size_t declared) {
    if constexpr (kCheckModels && KnowsNext<G> && CountsChildren<G>)
      if (g.hasNext())
        fail("numChildren = " + std::to_string(declared) + " but hasNext() is still true after child " +
             std::to_string(declared) + ": numChildren under-counts the children");
  }
};

}  // namespace jackdaw
