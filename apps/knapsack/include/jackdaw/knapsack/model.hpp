// 0/1 knapsack by branch and bound, as a Jackdaw optimisation model (maximise profit).
//
//   auto inst = jackdaw::knapsack::readInstance(path);
//   const jackdaw::knapsack::Space s(inst);
//   auto r = jackdaw::seq::search<jackdaw::knapsack::Model, jackdaw::Optimisation>(s, s.root(), {});
//   *r.objective == best profit; s.labels(*r.best) == chosen items, numbered as in the file
//
// Items are sorted by profit density (profit / weight, densest first). A node is a feasible set
// of items; its children each add ONE item that comes later in that order and still fits, so
// every set is built exactly once. The bound is Dantzig's: fill the remaining capacity greedily
// from the next item on and take a fraction of the first one that does not fit (the LP optimum
// of the subtree). A later sibling's subtree is an LP-subset of an earlier one's, so once a
// child fails the bound every later sibling does too (pruneLevel).
//
// Objective type: double (see instance.hpp). When every profit is a whole number the optimum is
// too, so the bound is rounded down, which prunes more and stays exact (the arithmetic is exact
// below 2^53).
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "jackdaw/knapsack/instance.hpp"

namespace jackdaw::knapsack {

struct Node {
  double profit = 0;
  double weight = 0;
  int next = 0;            // first sorted position a child may add
  std::vector<int> items;  // sorted positions chosen so far
  double getObj() const { return profit; }
  template <class Archive> void serialize(Archive& ar) { ar(profit, weight, next, items); }  // crosses ranks
};

class Space {
 public:
  explicit Space(const Instance& inst) : capacity(inst.capacity) {
    std::vector<int> order(inst.items.size());
    std::iota(order.begin(), order.end(), 0);
    // Zero-weight items have infinite density and go first; ties keep file order (stable).
    auto density = [&](int i) {
      const Item& it = inst.items[i];
      return it.weight > 0 ? it.profit / it.weight : HUGE_VAL;
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return density(a) > density(b); });
    integral = true;
    for (int i : order) {
      profit.push_back(inst.items[i].profit);
      weight.push_back(inst.items[i].weight);
      label.push_back(inst.items[i].label);
      integral = integral && inst.items[i].profit == std::floor(inst.items[i].profit);
    }
  }

  Node root() const { return Node{}; }

  // File labels of a node's items, in file order.
  std::vector<long long> labels(const Node& n) const {
    std::vector<long long> out;
    for (int i : n.items) out.push_back(label[i]);
    std::sort(out.begin(), out.end());
    return out;
  }

  double capacity;
  std::vector<double> profit, weight;  // by sorted position
  std::vector<long long> label;
  bool integral;  // every profit a whole number
};

struct Model {
  using Space = knapsack::Space;
  using Node = knapsack::Node;
  static constexpr bool pruneLevel = true;

  static double bound(const Space& s, const Node& n) {
    double b = n.profit, room = s.capacity - n.weight;
    const int size = static_cast<int>(s.profit.size());
    for (int j = n.next; j < size; ++j) {
      if (s.weight[j] <= room) {
        room -= s.weight[j];
        b += s.profit[j];
      } else {
        b += s.profit[j] * (room / s.weight[j]);
        break;
      }
    }
    // Real-valued data: a hair of slack so rounding never cuts a subtree that ties the optimum.
    return s.integral ? std::floor(b) : b + 1e-9 * (1.0 + std::abs(b));
  }

  struct Generator {
    Generator(const Space& s, const Node& p) : space(s), parent(p), room(s.capacity - p.weight), j(p.next) {
      const int size = static_cast<int>(s.weight.size());
      for (int k = p.next; k < size; ++k) numChildren += (s.weight[k] <= room);
    }
    const Space& space;
    const Node& parent;
    double room;
    int j;
    int numChildren = 0;

    // Checked builds compare numChildren with this (core/generator_check.hpp); the search never calls it.
    bool hasNext() const {
      for (int k = j; k < static_cast<int>(space.weight.size()); ++k)
        if (space.weight[k] <= room) return true;
      return false;
    }

    Node next() {
      while (space.weight[j] > room) ++j;  // numChildren guarantees one more fitting item
      Node c{parent.profit + space.profit[j], parent.weight + space.weight[j], j + 1, parent.items};
      c.items.push_back(j);
      ++j;
      return c;
    }
  };
};

}  // namespace jackdaw::knapsack
