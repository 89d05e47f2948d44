// BlockQueue: one worker's work-stealing queue, block-based in the style of BWoS (J. Wang et al.,
// "BWoS: Formally Verified Block-based Work Stealing for Parallel Processing", OSDI 2023).
//
// Why: a per-worker queue whose owner path costs about what a std::vector does. The queue is a
// ring of `Blocks` blocks of `BlockSize` slots. The owner pushes and pops (newest first) inside its
// current block with plain loads and stores: no lock and no read-modify-write atomic. Thieves
// steal (oldest first) only from blocks the owner has left and so granted to them. Owner and
// thieves meet only at block boundaries: leaving a full block grants it; popping back into a
// granted block takes it over with one exchange on the block's steal word, never waiting for
// thieves: a thief that reserved before the exchange keeps its slot, one whose compare-exchange
// comes after it fails (the word carries an epoch) and moves on.
//
//   jackdaw::BlockQueue<MyTask> q;           // owned by one worker
//   if (!q.push(std::move(t))) spill(t);     // owner: full (t not moved from)
//   auto mine = q.pop();                     // owner: newest (deepest) first
//   auto theirs = q.steal();                 // any thread: oldest (shallowest) first
//
// Capacity and visibility (the price of the owner's cheap path):
// - Fixed capacity, at most Blocks * BlockSize tasks, less while blocks are partly used: after a
//   takeover the slots thieves took are not reused until the owner comes back into that block
//   from below, and push() returns false while a thief is still moving a task out of the block
//   the owner needs next.
// - The owner's current block (up to BlockSize newest tasks) is not stealable until the owner
//   leaves it: when it fills, or at once through grant() (a hungry thief must see a split now), which
//   hands the block over as it is and starts the next. steal() can return nothing while size() > 0.
// Blocks must be a power of two (block numbers wrap at 2^32); T must be nothrow movable.
// A block's steal word is (epoch << 32) | (end << 16) | next: thieves reserve slots next .. end-1.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>

namespace jackdaw {

template <class T, std::size_t BlockSize = 16, std::size_t Blocks = 16>
class BlockQueue {
  static_assert(Blocks >= 2 && std::has_single_bit(Blocks), "Blocks: a power of two, at least 2");
  static_assert(BlockSize >= 1 && BlockSize < (std::size_t{1} << 15), "BlockSize: 1 .. 2^15-1");
  static_assert(std::is_nothrow_move_constructible_v<T>, "a task must be nothrow movable");

  static constexpr std::uint32_t kM = static_cast<std::uint32_t>(BlockSize);
  static constexpr std::uint32_t kMask = static_cast<std::uint32_t>(Blocks - 1);
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  static constexpr std::size_t kLine = 64;

  // A 64-bit word: (epoch << 32) | index. The head word's index is the block thieves look at
  // first; a steal word's index packs the next slot a thief may reserve and the end of the granted
  // slots (next == end: none left).
  static constexpr std::uint64_t pack(std::uint32_t hi, std::uint32_t lo) {
    return (std::uint64_t{hi} << 32) | lo;
  }
  static constexpr std::uint64_t stealWord(std::uint32_t epoch, std::uint32_t next, std::uint32_t end) {
    return pack(epoch, (end << 16) | next);
  }
  static constexpr std::uint32_t nextOf(std::uint64_t w) { return static_cast<std::uint32_t>(w) & 0xFFFFu; }
  static constexpr std::uint32_t endOf(std::uint64_t w) { return (static_cast<std::uint32_t>(w) >> 16) & 0xFFFFu; }
  static constexpr std::uint32_t hi(std::uint64_t w) { return static_cast<std::uint32_t>(w >> 32); }
  static constexpr std::uint32_t lo(std::uint64_t w) { return static_cast<std::uint32_t>(w); }
  // Block numbers compare modulo 2^32.
  static constexpr std::int32_t diff(std::uint32_t a, std::uint32_t b) {
    return static_cast<std::int32_t>(a - b);
  }

  struct Slot {
    alignas(T) unsigned char bytes[sizeof(T)];
  };
  struct alignas(kLine) Block {
    std::atomic<std::uint64_t> steal{0};            // thieves: compare-exchange next+1 (none at first)
    std::atomic<std::uint32_t> done{0};             // thieves: tasks moved out (running count)
    alignas(kLine) Slot slots[BlockSize];
    T* at(std::uint32_t i) { return std::launder(reinterpret_cast<T*>(slots[i].bytes)); }
  };
  // What only the owner reads and writes, per block.
  struct OwnerView {
    std::uint32_t grantStart = kNone;  // first granted slot while granted and not taken back
    std::uint32_t grantEnd = 0;        // one past the last granted slot
    std::uint32_t epoch = 0;           // the steal word's epoch (only the owner changes it)
    std::uint32_t reserved = 0;        // thief reservations accounted for (running count)
  };

 public:
  BlockQueue() : blocks_(std::make_unique<Block[]>(Blocks)) {}
  BlockQueue(const BlockQueue&) = delete;
  BlockQueue& operator=(const BlockQueue&) = delete;

  // Destroys what is left; no thread may be using the queue.
  ~BlockQueue() {
    for (std::uint32_t p = 0; p <= kMask; ++p)
      if (view_[p].grantStart != kNone) {
        Block& b = blocks_[p];
        for (std::uint32_t i = nextOf(b.steal.load(std::memory_order_acquire)); i < view_[p].grantEnd; ++i)
          b.at(i)->~T();
      }
    Block& c = blocks_[cur_ & kMask];
    for (std::uint32_t i = bottom_; i < top_; ++i) c.at(i)->~T();
  }

  // Owner only. False when full; then t is left as it was.
  bool push(T&& t) {
    if (top_ == kM && !advance()) return false;
    ::new (static_cast<void*>(blocks_[cur_ & kMask].slots[top_].bytes)) T(std::move(t));
    ++top_;
    owned_.store(owned_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    return true;
  }

  // Owner only: the newest task.
  std::optional<T> pop() {
    if (top_ == bottom_ && !retreat()) return std::nullopt;
    T* s = blocks_[cur_ & kMask].at(--top_);
    std::optional<T> out(std::move(*s));
    s->~T();
    owned_.store(owned_.load(std::memory_order_relaxed) - 1, std::memory_order_release);
    return out;
  }

  // Owner only: every task pushed so far becomes stealable now (the current block is granted as it
  // is, and the next one begun). False when the next block is not free yet (full, or a thief is
  // still moving a task out of it): then the newest tasks stay the owner's until it can.
  bool grant() {
    if (top_ == bottom_) return true;
    return advance();
  }

  // Owner only: tasks in the owner's current block, which thieves cannot see until grant().
  std::size_t hidden() const noexcept { return top_ - bottom_; }

  // Any thread: the oldest task in a granted block.
  std::optional<T> steal() {
    for (;;) {
      std::uint64_t h = head_.load(std::memory_order_acquire);
      const std::uint32_t hb = lo(h);
      if (diff(hb, ownerBlock_.load(std::memory_order_acquire)) >= 0) return std::nullopt;
      Block& b = blocks_[hb & kMask];
      std::uint64_t w = b.steal.load(std::memory_order_acquire);
      if (nextOf(w) < endOf(w)) {
        if (!b.steal.compare_exchange_strong(w, w + 1, std::memory_order_acq_rel,
                                             std::memory_order_acquire))
          continue;  // another thief, or the owner took the block back: look again
        stolen_.fetch_add(1, std::memory_order_relaxed);
        T* s = b.at(nextOf(w));
        std::optional<T> out(std::move(*s));
        s->~T();
        b.done.fetch_add(1, std::memory_order_release);  // the owner may reuse the slot
        return out;
      }
      // Nothing left to reserve here: move the head on unless someone already did.
      head_.compare_exchange_strong(h, pack(hi(h) + 1, hb + 1), std::memory_order_acq_rel,
                                    std::memory_order_relaxed);
    }
  }

  // Any thread: up to half of size() (at least one) oldest first; each task goes to *out++.
  template <class Out>
  std::size_t stealHalf(Out out) {
    const std::size_t want = std::max<std::size_t>(1, size() / 2);
    std::size_t n = 0;
    for (; n < want; ++n) {
      auto t = steal();
      if (!t) break;
      *out = std::move(*t);
      ++out;
    }
    return n;
  }

  // Any thread. May be briefly stale while others push, pop or steal; exact when quiescent.
  std::size_t size() const noexcept {
    const std::uint64_t s = stolen_.load(std::memory_order_acquire);
    const std::uint64_t o = owned_.load(std::memory_order_acquire);
    const auto d = static_cast<std::int64_t>(o - s);
    return d > 0 ? static_cast<std::size_t>(d) : 0;
  }
  bool empty() const noexcept { return size() == 0; }

  static constexpr std::size_t capacity() noexcept { return BlockSize * Blocks; }

 private:
  // Owner: the current block is full. Grant it to thieves and move into the next block, if that
  // block holds no task and no thief is still moving one out of it.
  bool advance() {
    const std::uint32_t n = cur_ + 1;
    const std::uint32_t np = n & kMask;
    OwnerView& nv = view_[np];
    Block& nb = blocks_[np];
    if (nv.grantStart != kNone) {  // the oldest granted block (n - Blocks)
      const std::uint64_t w = nb.steal.load(std::memory_order_acquire);
      if (nextOf(w) < endOf(w)) return false;  // tasks left: full
      nv.reserved += nv.grantEnd - nv.grantStart;  // thieves reserved all of it
      nv.grantStart = kNone;
    }
    if (nb.done.load(std::memory_order_acquire) != nv.reserved) return false;  // a thief is in it

    const std::uint32_t cp = cur_ & kMask;
    OwnerView& cv = view_[cp];
    cv.grantStart = bottom_;
    cv.grantEnd = top_;
    blocks_[cp].steal.store(stealWord(++cv.epoch, bottom_, top_), std::memory_order_release);
    const std::uint32_t granted = cur_;
    cur_ = n;
    bottom_ = top_ = 0;
    ownerBlock_.store(n, std::memory_order_release);

    // Keep thieves' head within the ring's window and at or below the block just granted (a
    // thief may have moved it past this block while the owner was in it). The epoch moves even
    // when the head stays: a thief that read the head before this grant, and found the block
    // empty (taken back), must not then move the head past it now that it holds tasks again.
    const std::uint32_t lowest = n - kMask;
    std::uint64_t h = head_.load(std::memory_order_acquire);
    for (;;) {
      std::uint32_t target = lo(h);
      if (diff(target, lowest) < 0) target = lowest;
      if (diff(target, granted) > 0) target = granted;
      if (head_.compare_exchange_weak(h, pack(hi(h) + 1, target), std::memory_order_acq_rel,
                                      std::memory_order_acquire))
        break;
    }
    return true;
  }

  // Owner: the current block is empty. Take back the newest granted block that thieves have not
  // emptied; blocks they emptied on the way are closed and accounted for.
  bool retreat() {
    for (std::uint32_t step = 1; step <= kMask; ++step) {
      const std::uint32_t x = cur_ - step;
      OwnerView& v = view_[x & kMask];
      if (v.grantStart == kNone) return false;
      const std::uint64_t old = blocks_[x & kMask].steal.exchange(stealWord(++v.epoch, 0, 0),
                                                                  std::memory_order_acq_rel);
      const std::uint32_t r = nextOf(old);
      v.reserved += r - v.grantStart;
      v.grantStart = kNone;
      if (r < v.grantEnd) {
        cur_ = x;
        bottom_ = r;
        top_ = v.grantEnd;
        ownerBlock_.store(x, std::memory_order_release);
        return true;
      }
    }
    return false;
  }

  std::unique_ptr<Block[]> blocks_;
  OwnerView view_[Blocks];
  // The owner's position: block number (wrapping), and its tasks [bottom_, top_) in that block.
  std::uint32_t cur_ = 0;
  std::uint32_t bottom_ = 0;
  std::uint32_t top_ = 0;
  std::atomic<std::uint64_t> owned_{0};  // pushes minus pops; written by the owner only
  alignas(kLine) std::atomic<std::uint32_t> ownerBlock_{0};  // cur_, for thieves
  alignas(kLine) std::atomic<std::uint64_t> head_{0};        // thieves' first block, with an epoch
  alignas(kLine) std::atomic<std::uint64_t> stolen_{0};      // reservations by thieves
};

}  // namespace jackdaw
