// The user's search model, as C++20 concepts.
//
// A model is a struct naming three types and, optionally, a few static members:
//
//   struct MyModel {
//     using Space = Graph;              // read-only problem data, built identically on every rank
//     using Node = Partial;             // copyable search state; getObj() for optimisation/decision
//     using Generator = Children;       // Children(const Space&, const Node& parent); next(); and
//                                       // numChildren (how many) or hasNext() (whether one more)
//                                       // or instead Children(space, parent, IncumbentView<Obj>): the best so far
//     static int bound(const Space&, const Node&);   // optional: upper bound of the node's subtree
//     static constexpr bool pruneLevel = true;        // optional: a failed bound prunes later siblings
//     using Better = std::less<>;                     // optional: objective order (default: maximise)
//     template <class F> static void hot(F& loop);    // optional: where a task's loop is compiled (runHot)
//     static bool valid(const Space&, const Node&, int depth);  // optional: could a search make it? (ChecksNodes)
//   };
//
// The parent passed to a Generator outlives the Generator (the skeletons keep it on a stable stack),
// so a Generator may keep a reference to it instead of a copy.
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

#include "jackdaw/core/incumbent_view.hpp"
#include "jackdaw/core/stats.hpp"

namespace jackdaw {

template <class N>
concept SearchNode = std::copy_constructible<N> && std::is_move_assignable_v<N>;

template <class N>
concept HasObjective = requires(const N& n) {
  { n.getObj() } -> std::totally_ordered;
};

namespace detail {
// The objective type: what getObj() returns, decayed (long long without getObj(): an enumeration).
template <class Node, bool = HasObjective<Node>>
struct ObjectiveOf { using type = long long; };
template <class Node>
struct ObjectiveOf<Node, true> { using type = std::decay_t<decltype(std::declval<const Node&>().getObj())>; };
}  // namespace detail

// A Generator that takes the incumbent: `Generator(const Space&, const Node& parent,
// IncumbentView<Obj>)`, which every skeleton then calls instead of the two-argument constructor
// (incumbent_view.hpp says what the view holds and when).
template <class G, class Space, class Node, class Obj>
concept SeesIncumbent = std::constructible_from<G, const Space&, const Node&, IncumbentView<Obj>>;

// How a generator says how many children it gives. Counted: a data member `numChildren`, set in
// the constructor, and next() called exactly that many times. Otherwise `bool hasNext() const`,
// asked before every child (it may advance the generator's own mutable state to the next child,
// so a scan is not done twice). A count lets the engine count leaves at the depth limit without
// building them; hasNext() spares a model the count when it costs work (a popcount, a scan of the
// items that fit). With both, the engine uses the count and checked builds compare the two.
template <class G>
concept CountsChildren = requires(G& gen) {
  { gen.numChildren } -> std::convertible_to<std::size_t>;
};
template <class G>
concept KnowsNext = requires(const G& gen) {
  { gen.hasNext() } -> std::convertible_to<bool>;
};

// Built from (space, parent), or from (space, parent, IncumbentView<Obj>) alone: the engine
// builds every generator one way, the three-argument one where it exists.
template <class G, class Space, class Node>
concept NodeGenerator = (std::constructible_from<G, const Space&, const Node&> ||
                         SeesIncumbent<G, Space, Node, typename detail::ObjectiveOf<Node>::type>) &&
                        (CountsChildren<G> || KnowsNext<G>) && requires(G& gen) {
                          { gen.next() } -> std::same_as<Node>;
                        };

template <class M>
concept SearchModel = requires {
  typename M::Space;
  typename M::Node;
  typename M::Generator;
} && SearchNode<typename M::Node> && NodeGenerator<typename M::Generator, typename M::Space, typename M::Node>;

// Optional: `static bool valid(const Space&, const Node&, int depth)`, whether a search of this
// Space could have produced the node at that depth (-1: the depth is not known, as for a saved
// incumbent). A resumed checkpoint's tasks and incumbent are checked with it before the search
// trusts them (apps/common record_check.hpp): a node it refuses makes the checkpoint bad input.
// It must accept every node of the tree, and should be cheap: it runs once per saved task.
template <class M>
concept ChecksNodes = requires(const typename M::Space& s, const typename M::Node& n, int depth) {
  { M::valid(s, n, depth) } -> std::convertible_to<bool>;
};

template <class M>
concept HasBound = requires(const typename M::Space& s, const typename M::Node& n) {
  { M::bound(s, n) } -> std::totally_ordered;
};

// An enumerator is a monoid over nodes: accumulate nodes, combine partial results, get the total.
// accumulate runs once for every visited node, the root included; it may take the Space too,
// `accumulate(const Space&, const Node&)`, when the count needs the problem data.
// Optionally `accumulateChildren(parent, n)`: count the n children of `parent` that lie at the
// depth limit without building them (they would only be accumulated, never expanded). And, with
// it, `accumulateGrandchildren(parent, n)`: the n grandchildren of `parent` at the depth limit,
// counted in bulk when the Generator counts its children (numChildren) and can also say how many
// children its next child has without building that child (`std::size_t countChildrenOfNext()`,
// which steps past it like next()).
template <class E, class Node>
concept Enumerator = std::default_initializable<E> && std::copy_constructible<E> &&
                     requires(E& e, const E& other, const Node& n) {
                       e.accumulate(n);
                       e.combine(other);
                       e.get();
                     };

// Optional on an enumerator: `bool consistentWith(const SearchStats&) const`, whether these partial
// results could come from a search that visited stats.nodes nodes (a count of every node equals
// it, a count of some nodes is at most it). A resumed checkpoint's shares are checked with it.
template <class E>
concept ChecksCounts = requires(const E& e, const SearchStats& s) {
  { e.consistentWith(s) } -> std::convertible_to<bool>;
};

template <class E, class Space, class Node>
concept AccumulatesWithSpace = requires(E& e, const Space& s, const Node& n) { e.accumulate(s, n); };

template <class E, class Space, class Node>
concept EnumeratorFor = Enumerator<E, Node> ||
                        (std::default_initializable<E> && std::copy_constructible<E> &&
                         AccumulatesWithSpace<E, Space, Node> && requires(E& e, const E& other) {
                           e.combine(other);
                           e.get();
                         });

template <class E, class Node>
concept CountsChildrenInBulk = requires(E& e, const Node& parent, std::size_t n) {
  e.accumulateChildren(parent, n);
};

template <class E, class Node>
concept CountsGrandchildrenInBulk = CountsChildrenInBulk<E, Node> && requires(E& e, const Node& parent, std::size_t n) {
  e.accumulateGrandchildren(parent, n);
};

template <class G>
concept CountsChildrenOfNext = requires(G& g) {
  { g.countChildrenOfNext() } -> std::convertible_to<std::size_t>;
};

// Optional on a counted generator (numChildren): `std::size_t dropLeaves()`, called once before
// its first child: removes the children that have no children of their own (leaves of the tree),
// lowers numChildren by as many (hasNext, if it has one, agrees), and returns how many. An
// enumeration whose enumerator counts children in bulk (accumulateChildren) counts them without
// building them; other searches never call it.
template <class G>
concept DropsLeaves = requires(G& g) {
  { g.dropLeaves() } -> std::convertible_to<std::size_t>;
};

namespace detail {
template <class M>
constexpr bool pruneLevelOf() {
  if constexpr (requires { M::pruneLevel; }) return M::pruneLevel;
  else return false;
}
template <class M>
struct BetterOf { using type = std::greater<>; };
template <class M>
  requires requires { typename M::Better; }
struct BetterOf<M> { using type = typename M::Better; };
}  // namespace detail

// Compile-time facts of a model with their defaults filled in.
template <SearchModel M>
struct ModelTraits {
  using Space = typename M::Space;
  using Node = typename M::Node;
  using Generator = typename M::Generator;
  using Better = typename detail::BetterOf<M>::type;
  static constexpr bool pruneLevel = detail::pruneLevelOf<M>();
  static constexpr bool hasBound = HasBound<M>;
};

// Runs `loop` (a task's whole depth-first search) through the model's optional hot(loop), else
// directly. Every skeleton, seq included, runs its tasks through here, so a model that compiles
// its kernels per instruction set gets the same specialised loop in every skeleton: its hot()
// is e.g. [[gnu::target("avx2"), gnu::flatten]] and calls loop(), and the engine, the generator
// and the kernels are inlined into that one function. Work handed to other threads leaves it
// through calls the engine keeps out of line (a task pool's push).
template <class M, class F>
void runHot(F&& loop) {
  if constexpr (requires { M::hot(loop); }) M::hot(loop);
  else loop();
}

}  // namespace jackdaw
