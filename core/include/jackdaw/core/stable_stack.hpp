// A stack whose elements never move: storage grows in chunks that are kept until destruction.
// The DFS keeps (node, generator) frames on it, and a generator may hold a reference to its node.
//
// The chunk list lives on the heap, apart from the stack's own fields (size, top): a search keeps
// a stack as a local of its hot loop (moving a worker's chunks in with swapStorage) and nothing
// out of line ever sees the local's address, so the compiler keeps size and top in registers.
// Out-of-line code reads the frames through a View (the chunk list and the size, by value).
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
  using Chunks = std::vector<std::unique_ptr<Slot[]>>;

 public:
  StableStack() = default;
  StableStack(const StableStack&) = delete;
  StableStack& operator=(const StableStack&) = delete;
  ~StableStack() {
    clear();
    delete chunks_;
  }

  template <class... Args>
  [[gnu::always_inline]] T& emplace(Args&&... args) {
    // Within a chunk the next slot is adjacent to the top; only a chunk boundary needs the lookup.
    void* at = size_ % ChunkSize != 0 ? static_cast<void*>(reinterpret_cast<Slot*>(top_) + 1) : slotAtBoundary();
    T* p = ::new (at) T(std::forward<Args>(args)...);
    ++size_;
    top_ = p;
    return *p;
  }

  [[gnu::always_inline]] void pop() noexcept {
    std::destroy_at(top_);
    --size_;
    // Within a chunk the previous element is adjacent (one test on the common path); only a chunk
    // boundary needs the lookup, or an empty stack.
    top_ = size_ % ChunkSize != 0 ? std::launder(reinterpret_cast<T*>(reinterpret_cast<Slot*>(top_) - 1))
           : size_ == 0           ? nullptr
                                  : at(chunks_, size_ - 1);
  }

  void clear() noexcept {
    while (size_ > 0) pop();
  }

  // Exchanges the chunks of two empty stacks (the elements of neither are touched).
  void swapStorage(StableStack& other) noexcept { std::swap(chunks_, other.chunks_); }

  T& top() noexcept { return *top_; }  // cached: the DFS asks for it at every node
  T& operator[](std::size_t i) noexcept { return *at(chunks_, i); }
  const T& operator[](std::size_t i) const noexcept { return *at(chunks_, i); }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  // The elements from the bottom, for code that must not hold the stack's address.
  class View {
   public:
    View(Chunks* chunks, std::size_t size) : chunks_(chunks), size_(size) {}
    T& operator[](std::size_t i) const noexcept { return *at(chunks_, i); }
    std::size_t size() const noexcept { return size_; }
    View first(std::size_t n) const noexcept { return View(chunks_, n); }  // the n bottom elements

   private:
    Chunks* chunks_;
    std::size_t size_;
  };
  View view() const noexcept { return View(chunks_, size_); }
  // The chunk list, made now if the stack has none yet, as an empty view: the storage a stack
  // that takes these chunks (swapStorage) keeps using, so first(n) views its n bottom elements.
  View storage() {
    if (!chunks_) chunks_ = newChunks();
    return View(chunks_, 0);
  }

 private:
  void* slotAtBoundary() {
    if (!chunks_) chunks_ = newChunks();
    return chunkAt(*chunks_, size_ / ChunkSize);
  }
  [[gnu::noinline]] static Chunks* newChunks() { return new Chunks(); }
  [[gnu::noinline]] static void* chunkAt(Chunks& chunks, std::size_t c) {
    if (c == chunks.size()) chunks.push_back(std::make_unique<Slot[]>(ChunkSize));
    return chunks[c][0].raw;
  }
  static T* at(Chunks* chunks, std::size_t i) noexcept {
    return std::launder(reinterpret_cast<T*>((*chunks)[i / ChunkSize][i % ChunkSize].raw));
  }
  Chunks* chunks_ = nullptr;  // owned; null until the first element
  std::size_t size_ = 0;
  T* top_ = nullptr;
};

}  // namespace jackdaw
