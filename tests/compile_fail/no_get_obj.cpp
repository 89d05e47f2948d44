// Mistake: an optimisation over a Node without getObj(). Expected first error: Optimisation
// needs getObj() on the Node.
#include "jackdaw/jackdaw.hpp"

struct Space {};
struct Node {
  int depth = 0;
#ifndef MISTAKE
  int getObj() const { return depth; }
#endif
};
struct Gen {
  Gen(const Space&, const Node& p) : parent(p) {}
  Node next() { return {parent.depth + 1}; }
  const Node& parent;
  std::size_t numChildren = parent.depth < 3 ? 2 : 0;
};
struct Model { using Space = ::Space; using Node = ::Node; using Generator = Gen; };

int main() {
  auto r = jackdaw::solve<Model, jackdaw::Optimisation>(Space{}, Node{});
  return r.objective && *r.objective == 3 ? 0 : 1;
}
