// Mistake: getObj() returns int but the params say long long. Expected first error: the params'
// objective type must be exactly getObj()'s.
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
  std::size_t numChildren = parent.depth < 3 ? 2 : 0;
};
struct Model { using Space = ::Space; using Node = ::Node; using Generator = Gen; };

int main() {
#ifdef MISTAKE
  jackdaw::SearchParams<long long> params;
#else
  jackdaw::SearchParams<int> params;
#endif
  params.initialBound = 0;
  auto r = jackdaw::solve<Model, jackdaw::Optimisation>(Space{}, Node{}, params);
  return r.objective && *r.objective == 3 ? 0 : 1;
}
