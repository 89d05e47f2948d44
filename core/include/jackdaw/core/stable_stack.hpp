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
    // Within a chunk the next slot is adjacent to the top; only a chunk boundary needs the lookup.
    void* at = size_ % ChunkSize != 0 ? static_cast<void*>(reinterpret_cast<Slot*>(top_) + 1) : slotAtBoundary();
    T* p = ::new (at) T(std::forward<Args>(args)...);
    ++size_;
    top_ = p;
    return *p;
  }

  void pop() noexcept {
    std::destroy_at(top_);
    --size_;
    // Within a chunk the previous element is adjacent; only a chunk boundary needs the lookup.
    top_ = (size_ == 0) ? nullptr
           : (size_ % ChunkSize != 0 ? std::launder(reinterpret_cast<T*>(reinterpret_cast<Slot*>(top_) - 1))
                                      : ptr(size_ - 1));
  }

  void clear() noexcept {
    while (size_ > 0) pop();
  }

  T& top() noexcept { return *top_; }  // cached: the DFS asks for it at every node
  T& operator[](std::size_t i) noexcept { return *ptr(i); }
  const T& operator[](std::size_t i) const noexcept { return *ptr(i); }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

 private:
  // The first slot of chunk size_ / ChunkSize, allocated the first time the stack reaches it.
  void* slotAtBoundary() {
    const std::size_t c = size_ / ChunkSize;
    if (c == chunks_.size()) chunks_.push_back(std::make_unique<Slot[]>(ChunkSize));
    return chunks_[c][0].raw;
  }
  T* ptr(std::size_t i) const noexcept {
    return std::launder(reinterpret_cast<T*>(chunks_[i / ChunkSize][i % ChunkSize].raw));
  }
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  std::size_t size_ = 0;
  T* top_ = nullptr;
};

}  // namespace jackdaw
