// Mistake: bound() written as a non-static member, through skeletons::run (no MPI). Expected
// first error: bound must be static.
#include "jackdaw/skeletons/table.hpp"

struct Space {};
struct Node {
  int depth = 0;
  int getObj() const { return depth; }
};
struct Gen {
  Gen(const Space&, const Node& p) : parent(p) {}
  Node next() { return {parent.depth + 1}; }
  const Node& parent;
  std::size_t numChildren = parent.depth < 3 ? 2 : 0;
};
struct Model {
  using Space = ::Space;
  using Node = ::Node;
  using Generator = Gen;
#ifdef MISTAKE
  int bound(const Space&, const Node&) const { return 3; }
#else
  static int bound(const Space&, const Node&) { return 3; }
#endif
};

int main() {
  jackdaw::StopFlag stop;
  auto r = jackdaw::skeletons::run<Model, jackdaw::Optimisation>("budget", Space{}, Node{}, {}, stop, {});
  return r.objective && *r.objective == 3 ? 0 : 1;
}
