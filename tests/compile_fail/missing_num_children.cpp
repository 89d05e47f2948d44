// Mistake: the Generator has no numChildren. Expected first error: the requirement, by name.
#include "jackdaw/jackdaw.hpp"

struct Space {};
struct Node { int depth = 0; };
struct Gen {
  Gen(const Space&, const Node& p) : parent(p) {}
  Node next() { return {parent.depth + 1}; }
  const Node& parent;
#ifndef MISTAKE
  int numChildren = parent.depth < 3 ? 2 : 0;
#endif
};
struct Model { using Space = ::Space; using Node = ::Node; using Generator = Gen; };

int main() {
  auto r = jackdaw::solve<Model, jackdaw::Enumeration<jackdaw::CountNodes>>(Space{}, Node{});
  return r.enumerator.get() == 15 ? 0 : 1;
}
