// Mistake: a Node that can cross ranks neither through cereal nor as raw bytes. Expected first
// error, once: the Node needs serialize() or must be trivially copyable.
#include <string>

#include "jackdaw/jackdaw.hpp"

struct Space {};
struct Node {
  std::string path;  // not trivially copyable: it needs serialize()
#ifndef MISTAKE
  template <class Archive> void serialize(Archive& ar) { ar(path); }
#endif
};
struct Gen {
  Gen(const Space&, const Node& p) : parent(p) {}
  Node next() { return {parent.path + char('a' + taken++)}; }
  const Node& parent;
  std::size_t numChildren = parent.path.size() < 3 ? 2 : 0;
  int taken = 0;
};
struct Model { using Space = ::Space; using Node = ::Node; using Generator = Gen; };

int main() {
  auto r = jackdaw::solve<Model, jackdaw::Enumeration<jackdaw::CountNodes>>(Space{}, Node{});
  return r.enumerator.get() == 15 ? 0 : 1;
}
