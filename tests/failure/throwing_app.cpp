// A search app whose model throws, for the failure tests:
//   throwing_app --throw-in generator|bound|objective|enumerator|none --kind count|optimise|decide
//
// The tree is a complete binary tree of depth D (-D, default 20). The trap is the node at depth 10
// on the all-ones path: every search must reach it (it lies above the optimum and the decision's
// solution, so no bound prunes it first). There the chosen piece of model code throws. With
// --throw-in none the answers are known in closed form: 2^(D+1) − 1 nodes, optimum D, solution found.
// --stall-ms N makes the trap node's expansion take N ms instead (the watchdog must not fire).
#include <bit>
#include <chrono>
#include <thread>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>

#include "jackdaw/app/main.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/run.hpp"

namespace {

using namespace jackdaw;

enum class Site { None, Generator, Bound, Objective, Enumerator };
constexpr int kTrapDepth = 10;

struct Space {
  int depth = 20;
  int stallMs = 0;  // the trap node's generator takes this long (a long node expansion)
};

[[noreturn]] void trap(const char* where) { throw std::runtime_error(std::string("trap node reached in ") + where); }

struct Node {
  int depth = 0;
  std::uint64_t path = 0;  // left/right choices; the all-ones path leads to the best leaf
  Site site = Site::None;  // where to throw, handed down from the root
  bool isTrap() const { return depth == kTrapDepth && path == (std::uint64_t{1} << kTrapDepth) - 1; }
  bool throwsIn(Site s) const { return site == s && isTrap(); }
  int getObj() const {
    if (throwsIn(Site::Objective)) trap("the objective");
    return std::popcount(path);
  }
};

struct Model {
  using Space = ::Space;
  using Node = ::Node;
  struct Generator {
    Generator(const Space& s, const Node& p) : parent(p), numChildren(p.depth < s.depth ? 2 : 0) {
      if (p.throwsIn(Site::Generator)) trap("the generator");
      if (s.stallMs > 0 && p.isTrap()) std::this_thread::sleep_for(std::chrono::milliseconds(s.stallMs));
    }
    const Node& parent;
    int numChildren;
    int i = 0;
    Node next() { return {parent.depth + 1, (parent.path << 1) | static_cast<std::uint64_t>(i++), parent.site}; }
  };
  static int bound(const Space& s, const Node& n) {
    if (n.throwsIn(Site::Bound)) trap("the bound");
    return std::popcount(n.path) + (s.depth - n.depth);
  }
};

struct Count {
  std::uint64_t count = 0;
  void accumulate(const Node& n) {
    if (n.throwsIn(Site::Enumerator)) trap("the enumerator");
    ++count;
  }
  void combine(const Count& o) { count += o.count; }
  std::uint64_t get() const { return count; }
};

}  // namespace

int main(int argc, char** argv) {
  Space space;
  std::string where = "none", kind = "count";
  auto setup = [&](CLI::App& cli) {
    cli.add_option("-D", space.depth, "Tree depth")->check(CLI::Range(kTrapDepth, 40));
    cli.add_option("--throw-in", where, "Model code that throws at the trap node")
        ->check(CLI::IsMember({"none", "generator", "bound", "objective", "enumerator"}));
    cli.add_option("--stall-ms", space.stallMs, "The trap node's expansion takes this long (no throw needed)")
        ->check(CLI::Range(0, 600000));
    cli.add_option("--kind", kind, "count | optimise | decide")->check(CLI::IsMember({"count", "optimise", "decide"}));
  };
  auto body = [&](app::AppContext& ctx) -> int {
    Node root;
    root.site = where == "generator"    ? Site::Generator
                : where == "bound"      ? Site::Bound
                : where == "objective"  ? Site::Objective
                : where == "enumerator" ? Site::Enumerator
                                        : Site::None;
    if (kind == "count") {
      auto r = app::runSearch<Model, Enumeration<Count>>(ctx, space, root, SearchParams<int>{});
      std::cout << "nodes: " << r.enumerator.get() << "\n";
      return r.complete() ? app::kSuccess : app::kPartial;
    }
    SearchParams<int> p;
    if (kind == "decide") {
      p.expectedObjective = space.depth;
      auto r = app::runSearch<Model, Decision>(ctx, space, root, p);
      std::cout << "found: " << (r.found() ? "yes" : "no") << "\n";
      return r.complete() ? app::kSuccess : app::kPartial;
    }
    auto r = app::runSearch<Model, Optimisation>(ctx, space, root, p);
    std::cout << "optimum: " << (r.objective ? *r.objective : -1) << "\n";
    return r.complete() ? app::kSuccess : app::kPartial;
  };
  return app::runMain(argc, argv, "throwing_app", "A model that throws, for the failure tests", setup, body);
}
