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
// too, so the bound is rounded down, which prunes more. Rounding down must never cut below the true
// bound: in floating point 39 + 285 * (11 / 15) is 247.99999999999997, floored to 247 while the
// subtree held 248. So when the profits, the weights and the capacity are all whole numbers (the
// readers keep them and the profits' sum below 2^53) the bound is computed in integers, exactly;
// otherwise it gets a relative slack before it is rounded.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
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
    exact = capacity == std::floor(capacity);
    for (int i : order) {
      profit.push_back(inst.items[i].profit);
      weight.push_back(inst.items[i].weight);
      label.push_back(inst.items[i].label);
      integral = integral && inst.items[i].profit == std::floor(inst.items[i].profit);
      exact = exact && inst.items[i].weight == std::floor(inst.items[i].weight);
    }
    exact = exact && integral;
    lightestFrom.assign(weight.size() + 1, HUGE_VAL);
    for (int j = static_cast<int>(weight.size()) - 1; j >= 0; --j) lightestFrom[j] = std::min(weight[j], lightestFrom[j + 1]);
    if (exact) {
      for (int j = 0; j < static_cast<int>(profit.size()); ++j) {
        profitWhole.push_back(static_cast<std::uint64_t>(profit[j]));
        weightWhole.push_back(static_cast<std::uint64_t>(weight[j]));
      }
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

  // Bytes the nodes of one search path take: a node holds the items chosen so far, and a path
  // can choose as many items as the lightest ones that fit together.
  std::uint64_t pathBytes() const {
    std::vector<double> w = weight;
    std::sort(w.begin(), w.end());
    std::uint64_t k = 0;
    for (double total = 0; k < w.size() && total + w[k] <= capacity; ++k) total += w[k];
    return k * (k + 1) / 2 * sizeof(int) + (k + 1) * sizeof(Node);
  }

  double capacity;
  std::vector<double> profit, weight;  // by sorted position
  std::vector<long long> label;
  bool integral;  // every profit a whole number
  bool exact;     // profits, weights and capacity all whole numbers (each below 2^53)
  std::vector<std::uint64_t> profitWhole, weightWhole;  // when exact: the same numbers as integers
  // lightestFrom[j]: the least weight of the items at sorted positions j and after, and HUGE_VAL
  // past the last: where it exceeds the room, no later item fits.
  std::vector<double> lightestFrom;
};

struct Model {
  using Space = knapsack::Space;
  using Node = knapsack::Node;
  static constexpr bool pruneLevel = true;

  static double bound(const Space& s, const Node& n) {
    const int size = static_cast<int>(s.profit.size());
    if (s.exact) {
      // Every partial sum is a whole number below 2^53, so these conversions are exact; the
      // fraction is floored in 128-bit integers (profit * room can exceed 2^64).
      std::uint64_t b = static_cast<std::uint64_t>(n.profit);
      std::uint64_t room = static_cast<std::uint64_t>(s.capacity) - static_cast<std::uint64_t>(n.weight);
      for (int j = n.next; j < size; ++j) {
        if (s.weightWhole[j] <= room) {
          room -= s.weightWhole[j];
          b += s.profitWhole[j];
        } else {
          b += static_cast<std::uint64_t>(static_cast<unsigned __int128>(s.profitWhole[j]) * room / s.weightWhole[j]);
          break;
        }
      }
      return static_cast<double>(b);
    }
    double b = n.profit, room = s.capacity - n.weight;
    for (int j = n.next; j < size; ++j) {
      if (s.weight[j] <= room) {
        room -= s.weight[j];
        b += s.profit[j];
      } else {
        b += s.profit[j] * (room / s.weight[j]);
        break;
      }
    }
    // Real-valued data: a hair of slack so rounding never cuts a subtree that ties the optimum
    // (with whole profits, the optimum is whole: the slack keeps the floor from dropping below it).
    const double slack = 1e-9 * (1.0 + std::abs(b));
    return s.integral ? std::floor(b + slack) : b + slack;
  }

  // The children are the later items that fit, found one at a time: hasNext() scans to the next
  // one (and keeps its place, so next() does not scan again), stopping where no later item is
  // light enough (lightestFrom). A level prune then ends the scan where the search stops asking.
  struct Generator {
    Generator(const Space& s, const Node& p) : space(s), parent(p), room(s.capacity - p.weight), j(p.next) {}
    const Space& space;
    const Node& parent;
    double room;
    mutable int j;  // the next item to try; at a fitting one once hasNext() said true

    bool hasNext() const {
      while (space.lightestFrom[j] <= room) {
        if (space.weight[j] <= room) return true;
        ++j;
      }
      return false;
    }

    Node next() {  // the engine asks hasNext() before every child: j is at a fitting item
      Node c{parent.profit + space.profit[j], parent.weight + space.weight[j], j + 1, parent.items};
      c.items.push_back(j);
      ++j;
      return c;
    }
  };
};

}  // namespace jackdaw::knapsack
