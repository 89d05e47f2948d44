// A fixed-capacity set of small integers: Words 64-bit words, no heap, trivially copyable.
//
//   jackdaw::BitSet<4> s;            // capacity 256, all clear
//   s.set(3); s.set(200);
//   s &= other; s.andNot(mask);
//   for (std::size_t v : s) ...      // set bits in increasing order
//   s.first();                        // lowest set bit, or BitSet<4>::npos
//
// Search nodes carry these by value and copy them per child, so every operation is a short
// loop over the words that the compiler can unroll; nothing allocates.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

namespace jackdaw {

template <std::size_t Words>
class BitSet {
  static_assert(Words > 0, "BitSet needs at least one word");

 public:
  using Word = std::uint64_t;
  static constexpr std::size_t wordBits = 64;
  static constexpr std::size_t capacity = Words * wordBits;
  static constexpr std::size_t npos = capacity;  // "no bit" from first()

  constexpr BitSet() noexcept = default;

  constexpr void set(std::size_t i) noexcept { words_[i / wordBits] |= bit(i); }
  constexpr void reset(std::size_t i) noexcept { words_[i / wordBits] &= ~bit(i); }
  constexpr bool test(std::size_t i) const noexcept { return (words_[i / wordBits] & bit(i)) != 0; }
  constexpr void clear() noexcept { words_ = {}; }

  // Sets bits 0 .. n-1 (n <= capacity); the usual "all vertices" set.
  constexpr void setFirst(std::size_t n) noexcept {
    for (std::size_t w = 0; w < Words; ++w) {
      const std::size_t lo = w * wordBits;
      words_[w] = n >= lo + wordBits ? ~Word{0} : (n > lo ? (Word{1} << (n - lo)) - 1 : Word{0});
    }
  }

  constexpr std::size_t count() const noexcept {
    std::size_t c = 0;
    for (Word w : words_) c += static_cast<std::size_t>(std::popcount(w));
    return c;
  }

  constexpr bool empty() const noexcept {
    Word any = 0;  // OR everything: no early exit, so no unpredictable branch per word
    for (Word w : words_) any |= w;
    return any == 0;
  }

  constexpr BitSet& operator&=(const BitSet& o) noexcept {
    for (std::size_t w = 0; w < Words; ++w) words_[w] &= o.words_[w];
    return *this;
  }
  constexpr BitSet& operator|=(const BitSet& o) noexcept {
    for (std::size_t w = 0; w < Words; ++w) words_[w] |= o.words_[w];
    return *this;
  }
  // this = this \ o
  constexpr BitSet& andNot(const BitSet& o) noexcept {
    for (std::size_t w = 0; w < Words; ++w) words_[w] &= ~o.words_[w];
    return *this;
  }
  // andNot restricted to words from `fromWord` on: for callers that know the lower words are
  // already clear (greedy colouring sweeps upwards), it skips work that cannot change anything.
  constexpr BitSet& andNotFrom(const BitSet& o, std::size_t fromWord) noexcept {
    for (std::size_t w = fromWord; w < Words; ++w) words_[w] &= ~o.words_[w];
    return *this;
  }

  friend constexpr BitSet operator&(BitSet a, const BitSet& b) noexcept { return a &= b; }
  friend constexpr BitSet operator|(BitSet a, const BitSet& b) noexcept { return a |= b; }

  // Lowest set bit, or npos.
  constexpr std::size_t first() const noexcept {
    for (std::size_t w = 0; w < Words; ++w)
      if (words_[w] != 0) return w * wordBits + static_cast<std::size_t>(std::countr_zero(words_[w]));
    return npos;
  }

  // Lowest set bit >= i, or npos.
  constexpr std::size_t next(std::size_t i) const noexcept {
    if (i >= capacity) return npos;
    std::size_t w = i / wordBits;
    Word cur = words_[w] & (~Word{0} << (i % wordBits));
    while (true) {
      if (cur != 0) return w * wordBits + static_cast<std::size_t>(std::countr_zero(cur));
      if (++w == Words) return npos;
      cur = words_[w];
    }
  }

  constexpr bool operator==(const BitSet&) const noexcept = default;

  // Direct word access for kernels that sweep word by word.
  constexpr Word word(std::size_t w) const noexcept { return words_[w]; }
  constexpr Word& word(std::size_t w) noexcept { return words_[w]; }

  // Forward iteration over the set bits, in increasing order (over a snapshot of the words).
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::size_t;

    constexpr const_iterator() noexcept = default;
    constexpr std::size_t operator*() const noexcept {
      return w_ * wordBits + static_cast<std::size_t>(std::countr_zero(cur_));
    }
    constexpr const_iterator& operator++() noexcept {
      cur_ &= cur_ - 1;  // drop the lowest set bit
      skipEmpty();
      return *this;
    }
    constexpr const_iterator operator++(int) noexcept {
      auto t = *this;
      ++*this;
      return t;
    }
    constexpr bool operator==(const const_iterator& o) const noexcept { return w_ == o.w_ && cur_ == o.cur_; }

   private:
    friend class BitSet;
    constexpr const_iterator(const BitSet* s, std::size_t w) noexcept
        : s_(s), w_(w), cur_(w < Words ? s->words_[w] : 0) {
      skipEmpty();
    }
    constexpr void skipEmpty() noexcept {
      while (cur_ == 0 && w_ < Words) {
        if (++w_ < Words) cur_ = s_->words_[w_];
      }
    }
    const BitSet* s_ = nullptr;
    std::size_t w_ = Words;
    Word cur_ = 0;
  };

  constexpr const_iterator begin() const noexcept { return const_iterator(this, 0); }
  constexpr const_iterator end() const noexcept { return const_iterator(this, Words); }

  // Calls f(i) for every set bit i, in increasing order; cheaper than the iterator in hot loops.
  template <class F>
  constexpr void forEach(F&& f) const {
    for (std::size_t w = 0; w < Words; ++w) {
      for (Word cur = words_[w]; cur != 0; cur &= cur - 1)
        f(w * wordBits + static_cast<std::size_t>(std::countr_zero(cur)));
    }
  }

  // Serialisation for any archive that takes 64-bit integers (cereal and the like); stolen
  // search nodes cross ranks. Kept generic so core/ needs no serialisation library.
  template <class Archive>
  void serialize(Archive& ar) {
    for (Word& w : words_) ar(w);
  }

 private:
  static constexpr Word bit(std::size_t i) noexcept { return Word{1} << (i % wordBits); }
  std::array<Word, Words> words_{};
};

static_assert(std::is_trivially_copyable_v<BitSet<4>>);
static_assert(std::forward_iterator<BitSet<2>::const_iterator>);

}  // namespace jackdaw
