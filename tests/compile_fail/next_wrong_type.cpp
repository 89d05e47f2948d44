// Mistake: next() returns something other than the Node. Expected first error: next() must
// return the model's Node.
#include "jackdaw/jackdaw.hpp"

struct Space {};
struct Node { int depth = 0; };
struct Gen {
  Gen(const Space&, const Node& p) : parent(p) {}
#ifdef MISTAKE
  int next() { return parent.depth + 1; }
#else
  Node next() { return {parent.depth + 1}; }
#endif
  const Node& parent;
  std::size_t numChildren = parent.depth < 3 ? 2 : 0;
};
struct Model { using Space = ::Space; using Node = ::Node; using Generator = Gen; };

int main() {
  auto r = jackdaw::solve<Model, jackdaw::Enumeration<jackdaw::CountNodes>>(Space{}, Node{});
  return r.enumerator.get() == 15 ? 0 : 1;
}
