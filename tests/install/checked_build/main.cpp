// Counts the compositions of n into parts 1, 2 and 3 (OEIS A000073: n = 10 gives 274) with a
// model whose generator can lie: with `overcount`, numChildren says one child more than there is.
// A checked build must stop that search with ModelError; the honest model must pass it.
//
//   checked_build N [overcount]    prints "count: C", or "error: ..." and exits 1
#include <algorithm>
#include <cstddef>
#include <exception>
#include <iostream>
#include <string>

#include "jackdaw/core/generator_check.hpp"
#include "jackdaw/skeletons/seq.hpp"

template <bool Overcount>
struct Compositions {
  struct Space { int n = 0; };
  struct Node { int sum = 0; };  // the parts chosen so far add up to sum
  struct Generator {
    std::size_t numChildren = 0;
    Generator(const Space& s, const Node& p) : parent(p), parts(std::clamp(s.n - p.sum, 0, 3)) {
      numChildren = static_cast<std::size_t>(parts) + (Overcount && parts > 0 ? 1 : 0);
    }
    bool hasNext() const { return taken < parts; }
    // The lie's extra child repeats the last part: unchecked, that subtree is counted twice.
    Node next() { return {parent.sum + std::min(++taken, parts)}; }
    const Node& parent;
    int parts, taken = 0;
  };
};

struct CountComplete {  // nodes whose parts add up to n exactly
  long long count = 0;
  template <class Space, class Node>
  void accumulate(const Space& s, const Node& n) { count += n.sum == s.n; }
  void combine(const CountComplete& o) { count += o.count; }
  long long get() const { return count; }
};

template <class M>
int run(int n) {
  auto r = jackdaw::seq::search<M, jackdaw::Enumeration<CountComplete>>({n}, {}, {});
  std::cout << "count: " << r.enumerator.get() << "\n";
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) return std::cerr << "usage: checked_build N [overcount]\n", 2;
  const int n = std::stoi(argv[1]);
  const bool lie = argc > 2 && std::string(argv[2]) == "overcount";
  std::cout << "checked: " << (jackdaw::kCheckModels ? "yes" : "no") << "\n";
  try {
    return lie ? run<Compositions<true>>(n) : run<Compositions<false>>(n);
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n";
    return 1;
  }
}
