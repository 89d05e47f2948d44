// Mistake: numChildren written as a method, in a program that searches the model in all three
// kinds. Expected: the requirement once, not once per kind.
#include "jackdaw/jackdaw.hpp"

struct Space {};
struct Node {
  int depth = 0;
  int getObj() const { return depth; }
};
struct Gen {
  Gen(const Space&, const Node& p) : parent(p) {}
  Node next() { return {parent.depth + 1}; }
  const Node& parent;
#ifdef MISTAKE
  std::size_t numChildren() const { return parent.depth < 3 ? 2 : 0; }
#else
  std::size_t numChildren = parent.depth < 3 ? 2 : 0;
#endif
};
struct Model { using Space = ::Space; using Node = ::Node; using Generator = Gen; };

int main() {
  // 15 nodes; the deepest is at depth 3, so the optimum is 3 and a decision for 3 succeeds.
  auto e = jackdaw::solve<Model, jackdaw::Enumeration<jackdaw::CountNodes>>(Space{}, Node{});
  auto o = jackdaw::solve<Model, jackdaw::Optimisation>(Space{}, Node{}, jackdaw::SearchParams<int>{});
  jackdaw::SearchParams<int> goal;
  goal.expectedObjective = 3;
  auto d = jackdaw::solve<Model, jackdaw::Decision>(Space{}, Node{}, goal);
  return e.enumerator.get() == 15 && o.objective && *o.objective == 3 && d.found() ? 0 : 1;
}
