// Must NOT compile: the generator has no next(). The test checks that the compiler's message
// names the missing requirement.
#include "jackdaw/skeletons/seq.hpp"

struct BadModel {
  struct Space {};
  struct Node {};
  struct Generator {
    Generator(const Space&, const Node&) {}
    int numChildren = 0;
  };
};

int main() {
  jackdaw::SearchParams<long long> p;
  auto r = jackdaw::seq::search<BadModel, jackdaw::Enumeration<jackdaw::CountNodes>>({}, {}, p);
  return static_cast<int>(r.stats.nodes);
}
