#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <map>

namespace jackdaw::sim::detail {

// A rank's pool: the owner takes the deepest task, a thief the shallowest; within a depth, first
// in first out, as the engine's DepthPool (core/work_pool.hpp). The order matters to branch and
// bound: a model's generator yields its most promising children first.
class Pool {
 public:
  void push(std::uint64_t id, std::uint32_t depth) {
    byDepth_[depth].push_back(id);
    ++size_;
  }
  std::size_t size() const { return size_; }
  std::uint64_t popDeepest() {
    auto it = std::prev(byDepth_.end());
    const std::uint64_t id = it->second.front();
    it->second.pop_front();
    if (it->second.empty()) byDepth_.erase(it);
    --size_;
    return id;
  }
  std::uint64_t takeShallowest() {
    auto it = byDepth_.begin();
    const std::uint64_t id = it->second.front();
    it->second.pop_front();
    if (it->second.empty()) byDepth_.erase(it);
    --size_;
    return id;
  }

 private:
  std::map<std::uint32_t, std::deque<std::uint64_t>> byDepth_;
  std::size_t size_ = 0;
};

}  // namespace jackdaw::sim::detail
