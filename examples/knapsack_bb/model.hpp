// 0/1 knapsack by branch and bound (maximise the profit). A node is a set of items that fits, so
// every node is an answer; each child adds one item after the node's last (each set built once).
#pragma once

#include <cstdint>
#include <vector>

namespace knapsack_bb {
struct Item { long long profit = 0, weight = 0; };

// Read-only data, shared by a rank's workers: items densest first (profit/weight), 64 at most.
struct Space { std::vector<Item> items; long long capacity = 0; };

// Numbers and a mask: trivially copyable, so it crosses ranks as raw bytes (no serialize()).
struct Node {
  long long profit = 0, weight = 0;
  int next = 0;             // a child adds one of the items next, next+1, ...
  std::uint64_t taken = 0;  // bit i: item i is packed
  long long getObj() const { return profit; }
};

// One child per later item that still fits, in item order (densest first).
struct Generator {
  Generator(const Space& s, const Node& parent) : space(s), parent(parent), item(parent.next) {
    for (int i = parent.next; i < static_cast<int>(s.items.size()); ++i) numChildren += fits(i);
  }
  bool fits(int i) const { return parent.weight + space.items[i].weight <= space.capacity; }
  Node next() {  // called at most numChildren times, so a fitting item is always left
    while (!fits(item)) ++item;
    const int i = item++;
    const Item& it = space.items[i];
    return {parent.profit + it.profit, parent.weight + it.weight, i + 1, parent.taken | (1ull << i)};
  }
  const Space& space;
  const Node& parent;  // the engine keeps the parent alive while its generator lives
  int item;            // the next item to try
  int numChildren = 0;
};

struct Model {
  using Space = knapsack_bb::Space;
  using Node = knapsack_bb::Node;
  using Generator = knapsack_bb::Generator;
  // Dantzig's bound: fill the room greedily from item `next` on, then a fraction of the first item
  // that does not fit. No packing below n (n included) earns more; whole profits, so round down.
  static long long bound(const Space& s, const Node& n) {
    long long b = n.profit, room = s.capacity - n.weight;
    for (int i = n.next; i < static_cast<int>(s.items.size()); ++i) {
      const Item& it = s.items[i];
      if (it.weight > room) return b + it.profit * room / it.weight;
      room -= it.weight;  b += it.profit;
    }
    return b;
  }
  // Safe, as bounds never increase along the children: a later child's bound is a fractional
  // packing (in the parent's room) of items after an earlier child's item i, and the best such
  // packing of i and later items is the greedy fill taking i first: the earlier child's bound.
  static constexpr bool pruneLevel = true;
};
}  // namespace knapsack_bb
