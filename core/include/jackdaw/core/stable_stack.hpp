// A stack whose elements never move: storage grows in chunks that are kept until destruction.
// The DFS keeps (node, generator) frames on it, and a generator may hold a reference to its node.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace jackdaw {

template <class T, std::size_t ChunkSize = 64>
class StableStack {
  struct alignas(T) Slot {
    std::byte raw[sizeof(T)];
  };

 public:
  StableStack() = default;
  StableStack(const StableStack&) = delete;
  StableStack& operator=(const StableStack&) = delete;
  ~StableStack() { clear(); }

  template <class... Args>
  T& emplace(Args&&... args) {
    const std::size_t c = size_ / ChunkSize;
    if (c == chunks_.size()) chunks_.push_back(std::make_unique<Slot[]>(ChunkSize));
    T* p = ::new (static_cast<void*>(chunks_[c][size_ % ChunkSize].raw)) T(std::forward<Args>(args)...);
    ++size_;
    return *p;
  }

  void pop() noexcept {
    --size_;
    std::destroy_at(ptr(size_));
  }

  void clear() noexcept {
    while (size_ > 0) pop();
  }

  T& top() noexcept { return *ptr(size_ - 1); }
  T& operator[](std::size_t i) noexcept { return *ptr(i); }
  const T& operator[](std::size_t i) const noexcept { return *ptr(i); }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

 private:
  T* ptr(std::size_t i) const noexcept {
    return std::launder(reinterpret_cast<T*>(chunks_[i / ChunkSize][i % ChunkSize].raw));
  }
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace jackdaw
