// Mistake: an enumerator without combine(), through the app frame's runSearch. Expected first
// error: Enumeration<E> needs combine().
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"

struct Space {};
struct Node { int depth = 0; };
struct Gen {
  Gen(const Space&, const Node& p) : parent(p) {}
  Node next() { return {parent.depth + 1}; }
  const Node& parent;
  std::size_t numChildren = parent.depth < 3 ? 2 : 0;
};
struct Model { using Space = ::Space; using Node = ::Node; using Generator = Gen; };
struct Leaves {
  long long n = 0;
  void accumulate(const Node& node) { n += node.depth == 3; }
#ifndef MISTAKE
  void combine(const Leaves& o) { n += o.n; }
#endif
  long long get() const { return n; }
};

int main(int argc, char** argv) {
  return jackdaw::app::runMain(argc, argv, "leaves", "count leaves", [](jackdaw::app::AppContext& ctx) {
    auto r = jackdaw::app::runSearch<Model, jackdaw::Enumeration<Leaves>>(ctx, Space{}, Node{}, {});
    return r.enumerator.get() == 8 ? 0 : 1;
  });
}
