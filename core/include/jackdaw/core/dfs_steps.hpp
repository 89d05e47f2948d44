// The steps of a depth-first search that both engines take the same way: DepthFirst (an explicit
// stack of frames, which skeletons steer through hooks and split work from) and RecursiveSearch
// (the seq skeleton's, on the call stack). Building a node's generator, and the enumeration's
// counts in bulk: the last level above the depth limit (countLeaves), the last two
// (countTwoLevels), and the leaf children a generator drops anywhere (countDroppedLeaves), without
// building those nodes, giving the counts, node total and backtracks building them would.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>

#include "jackdaw/core/generator_check.hpp"
#include "jackdaw/core/node_rules.hpp"

namespace jackdaw {

template <class G, class Node>
concept GeneratesInPlace = requires(G& g, Node& out) { g.nextInto(out); };

template <SearchModel M, SearchKind K>
struct DfsSteps {
  using T = SearchTypes<M, K>;
  using Node = typename T::Node;
  using Generator = typename T::Generator;
  using Check = GeneratorCheck<M>;  // the generator contract in checked builds; nothing otherwise
  static constexpr bool pruneLevel = ModelTraits<M>::pruneLevel;
  static constexpr bool seesIncumbent = SeesIncumbent<Generator, typename T::Space, Node, typename T::Obj>;

  // The generator of n, given the incumbent if it takes it (model.hpp, SeesIncumbent). Returned
  // as a prvalue: built in place, never moved.
  static Generator generator(NodeRules<M, K>& rules, const Node& n) {
    if constexpr (seesIncumbent) return Generator(rules.space(), n, rules.view());
    else return Generator(rules.space(), n);
  }

  // A generator's children one by one, whether it counts them (numChildren) or says when it has
  // no more (hasNext; model.hpp). `left` is what a frame keeps: counted, the children not yet
  // taken; otherwise 1 while the generator may have more and 0 once a level prune closed it.
  static constexpr bool counted = CountsChildren<Generator>;
  [[gnu::always_inline]] static std::size_t opened(const Generator& gen) {
    if constexpr (counted) return static_cast<std::size_t>(gen.numChildren);
    else return 1;
  }
  [[gnu::always_inline]] static bool more(const Generator& gen, std::size_t left) {
    if constexpr (counted) return left > 0;
    else return left > 0 && gen.hasNext();
  }
  // About to take the next child: the checked build's contract check, then one fewer left.
  [[gnu::always_inline]] static void take(const Generator& gen, std::size_t declared, std::size_t& left) {
    Check::beforeNext(gen, declared, declared - left);
    if constexpr (counted) --left;
  }
  // How many children gen gives: its count, or counted by building them (gen is used up then).
  static std::size_t children(Generator& gen) {
    if constexpr (counted) {
      return static_cast<std::size_t>(gen.numChildren);
    } else {
      std::size_t k = 0;
      for (; gen.hasNext(); ++k) (void)gen.next();
      return k;
    }
  }

  // Produce the next child into `out` (in place when the generator can).
  [[gnu::always_inline]] static void produce(Generator& gen, Node& out) {
    if constexpr (GeneratesInPlace<Generator, Node>) gen.nextInto(out);
    else out = gen.next();
  }

  // Nodes counted without a visit each: the node total, and the deepest of them.
  static void countedInBulk(NodeRules<M, K>& rules, std::size_t nodes, int deepest) {
    rules.stats.addNodes(nodes);
    if (static_cast<std::uint64_t>(deepest) > rules.stats.maxDepth) rules.stats.maxDepth = static_cast<std::uint64_t>(deepest);
  }

  // Whether the children of n (visited, at depth d) are counted in bulk rather than built: the
  // last level above the depth limit, for an enumerator that counts a node's children.
  static bool countsLeaves(NodeRules<M, K>& rules, int d) {
    if constexpr (CountsChildrenInBulk<typename T::Enum, Node>) return rules.countsLeavesInBulk(d);
    else return false;
  }
  // n's children counted at once (no backtrack: n is not expanded).
  static void countLeaves(NodeRules<M, K>& rules, const Node& n, int d) {
    if constexpr (CountsChildrenInBulk<typename T::Enum, Node>) {
      Generator gen = generator(rules, n);
      const std::size_t k = children(gen);  // without a count, the children are built to count them
      if constexpr (kCheckModels && counted) {  // the count is used without building the children: build them here
        for (std::size_t i = 0; i < k; ++i) {
          Check::beforeNext(gen, k, i);
          (void)gen.next();
        }
        Check::atEnd(gen, k);
      }
      rules.acc.accumulateChildren(n, k);
      countedInBulk(rules, k, k > 0 ? d + 1 : d);
    }
  }

  // n's children and grandchildren, two levels above the depth limit, counted without building
  // either (a node that the children would only have counted in bulk). What follows is exactly
  // what expanding n would have done: the same counts, the same nodes, and one backtrack (budget's
  // splits, and so its tasks, are unchanged; the caller runs its after-backtrack hook). Checked
  // builds also build every child and compare its generator's count with the one the model gave.
  static void countTwoLevels(NodeRules<M, K>& rules, const Node& n, int d) {
    if constexpr (NodeRules<M, K>::countsTwoLevels) {
      Generator gen = generator(rules, n);
      const auto k = static_cast<std::size_t>(gen.numChildren);
      std::size_t grandchildren = 0;
      if constexpr (kCheckModels) {
        Generator built = generator(rules, n);
        for (std::size_t i = 0; i < k; ++i) {
          Check::beforeNext(gen, k, i);
          Check::beforeNext(built, k, i);
          const auto counted = static_cast<std::size_t>(gen.countChildrenOfNext());
          const Node c = built.next();
          Check::childCount(counted, static_cast<std::size_t>(generator(rules, c).numChildren), i);
          grandchildren += counted;
        }
        Check::atEnd(gen, k);
      } else {
        for (std::size_t i = 0; i < k; ++i) grandchildren += static_cast<std::size_t>(gen.countChildrenOfNext());
      }
      rules.acc.accumulateChildren(n, k);
      rules.acc.accumulateGrandchildren(n, grandchildren);
      countedInBulk(rules, k + grandchildren, d + (grandchildren > 0 ? 2 : k > 0 ? 1 : 0));
      ++rules.stats.backtracks;
    }
  }

  // n's generator, about to give n's children one by one (n visited at depth d): where the
  // generator can tell its leaf children (model.hpp, DropsLeaves), it drops them and they are
  // counted here, with the nodes and backtracks that building them would have given.
  static constexpr bool dropsLeaves = isEnumeration<K> && DropsLeaves<Generator> && counted &&
                                      CountsChildrenInBulk<typename T::Enum, Node>;
  [[gnu::always_inline]] static void countDroppedLeaves(NodeRules<M, K>& rules, Generator& gen, const Node& n, int d) {
    if constexpr (dropsLeaves) {
      const auto k = static_cast<std::size_t>(gen.dropLeaves());
      if constexpr (kCheckModels) checkDropped(rules, n, gen, k);
      if (k > 0) {
        rules.acc.accumulateChildren(n, k);
        countedInBulk(rules, k, d + 1);
        rules.stats.backtracks += k;
      }
    }
  }

  // Checked builds: the generator's children, built, include at least the k it dropped as leaves.
  static void checkDropped(NodeRules<M, K>& rules, const Node& n, const Generator& gen, std::size_t k) {
    Generator full = generator(rules, n);
    const auto all = static_cast<std::size_t>(full.numChildren);
    std::size_t leaves = 0;
    for (std::size_t i = 0; i < all; ++i) {
      Check::beforeNext(full, all, i);
      const Node c = full.next();
      leaves += generator(rules, c).numChildren == 0;
    }
    Check::droppedLeaves(all, static_cast<std::size_t>(gen.numChildren), k, leaves);
  }

  // On a stop, whether a node visited at depth d still had work below it.
  static bool hasChildren(NodeRules<M, K>& rules, const Node& n, int d) {
    if (!rules.expandable(d)) return false;
    if constexpr (counted) return generator(rules, n).numChildren > 0;
    else return generator(rules, n).hasNext();
  }
};

}  // namespace jackdaw
