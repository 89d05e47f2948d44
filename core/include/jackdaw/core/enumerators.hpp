// Ready-made enumerators (monoids over nodes).
#pragma once

#include <cstdint>
#include <vector>

namespace jackdaw {

// Counts every node.
struct CountNodes {
  std::uint64_t count = 0;
  template <class N> void accumulate(const N&) { ++count; }
  template <class N> void accumulateChildren(const N&, std::size_t n) { count += n; }
  template <class N> void accumulateGrandchildren(const N&, std::size_t n) { count += n; }
  void combine(const CountNodes& o) { count += o.count; }
  std::uint64_t get() const { return count; }
  template <class Archive> void serialize(Archive& ar) { ar(count); }
};

// Counts nodes per value of a key (usually the depth) that the node reports through depthOf(node).
template <class DepthOf>
struct CountByDepth {
  std::vector<std::uint64_t> counts;
  template <class N>
  void accumulate(const N& n) {
    const auto d = static_cast<std::size_t>(DepthOf{}(n));
    if (d >= counts.size()) counts.resize(d + 1, 0);
    ++counts[d];
  }
  template <class N>
  void accumulateChildren(const N& parent, std::size_t k) { addBelow(parent, 1, k); }
  template <class N>
  void accumulateGrandchildren(const N& parent, std::size_t k) { addBelow(parent, 2, k); }
  void combine(const CountByDepth& o) {
    if (o.counts.size() > counts.size()) counts.resize(o.counts.size(), 0);
    for (std::size_t i = 0; i < o.counts.size(); ++i) counts[i] += o.counts[i];
  }
  const std::vector<std::uint64_t>& get() const { return counts; }
  template <class Archive> void serialize(Archive& ar) { ar(counts); }  // needs cereal/types/vector.hpp

 private:
  template <class N>
  void addBelow(const N& parent, std::size_t levels, std::size_t k) {
    if (k == 0) return;
    const auto d = static_cast<std::size_t>(DepthOf{}(parent)) + levels;
    if (d >= counts.size()) counts.resize(d + 1, 0);
    counts[d] += k;
  }
};

}  // namespace jackdaw
