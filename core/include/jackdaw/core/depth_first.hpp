// The depth-first engine every skeleton runs: an explicit stack of (node, generator) frames.
//
// Skeletons steer it through a Hooks object (all members optional):
//   bool spawnsChildrenOf(int depth)          children of a node at this depth become tasks
//   void spawn(Node&& child, int depth)       receive such a child (already bound-tested)
//   void afterNode(DepthFirst&)               after each visited node (stack stealing answers here)
//   void afterBacktrack(DepthFirst&)          after each backtrack (budget counts these)
// and may split work off the stack with split().shallowest(). Out of the loop, a pulse (the rules'
// setPulse) may split the running task too: a DfsSplit over the frames open at a visit
// (framesAtVisit), which is how the parallel skeletons' split rules keep their code out of the loop.
//
// On a stop the engine leaves its subtree at once. Normally the unexplored rest is dropped (and
// rules.truncated says so); with rules.unexplored set it is kept instead: the root if it was not
// visited, every unexplored child of every open frame, and the children of the node visited last.
//
// When the Node is default-constructible, a child is built straight into its own stack frame
// (through the generator's optional `void nextInto(Node&)`, else by assigning next()), so a node
// is never copied between generation and expansion.
//
// An enumeration with a depth limit counts the last level (accumulateChildren) or the last two
// (accumulateGrandchildren with the generator's countChildrenOfNext; model.hpp) without building
// those nodes, and anywhere the leaf children that a generator drops (dropLeaves). The counts,
// the node total and the backtracks are what building them would give.
// Those steps, and building a generator, are dfs_steps.hpp's, shared with RecursiveSearch.
#pragma once

#include <concepts>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "jackdaw/core/dfs_steps.hpp"
#include "jackdaw/core/generator_check.hpp"
#include "jackdaw/core/node_rules.hpp"
#include "jackdaw/core/stable_stack.hpp"

namespace jackdaw {

struct NoHooks {};

namespace detail {
// A frame's generator, built once the frame's node is expanded: std::optional's interface, but
// built by an always-inlined placement new. std::optional::emplace went through an out-of-line
// std::_Construct call in the parallel skeletons' task loop, which the compiler would not inline
// into it (UTS T1L: 0.55-0.85 % of a worker's samples in that call; bench/results/fine_grain.md).
template <class G>
class FrameGenerator {
 public:
  FrameGenerator() noexcept {}
  ~FrameGenerator() { reset(); }
  FrameGenerator(const FrameGenerator&) = delete;
  FrameGenerator& operator=(const FrameGenerator&) = delete;
  template <class... Args>
  [[gnu::always_inline]] G& emplace(Args&&... args) {
    reset();
    G* g = ::new (static_cast<void*>(&g_)) G(std::forward<Args>(args)...);
    engaged_ = true;
    return *g;
  }
  [[gnu::always_inline]] void reset() noexcept {
    if constexpr (!std::is_trivially_destructible_v<G>)
      if (engaged_) g_.~G();
    engaged_ = false;
  }
  explicit operator bool() const noexcept { return engaged_; }
  G& operator*() noexcept { return g_; }
  const G& operator*() const noexcept { return g_; }
  G* operator->() noexcept { return &g_; }

 private:
  union {
    G g_;
  };
  bool engaged_ = false;
};
}  // namespace detail

// One open node of the search: the node, its generator once expanded, the children left.
template <SearchModel M, SearchKind K>
struct DfsFrame {
  using Node = typename SearchTypes<M, K>::Node;
  explicit DfsFrame(int d) : depth(d) {}
  DfsFrame(Node&& n, int d) : node(std::move(n)), depth(d) {}
  Node node;
  detail::FrameGenerator<typename SearchTypes<M, K>::Generator> gen;  // engaged once the node is expanded here
  std::size_t remaining = 0;  // the children left; 1 while open for a generator without a count (DfsSteps::more)
  std::size_t declared = 0;  // gen's numChildren (checked builds; kCut after a level prune)
  int depth;
};

// The frames' storage. A worker that runs many tasks passes its own to every DepthFirst, so a
// task allocates nothing: the chunks stay from one task to the next.
template <SearchModel M, SearchKind K>
using DfsStack = StableStack<DfsFrame<M, K>>;

// What the engine and a split do to a frame (through DfsSteps: the generator contract, checked
// builds only).
template <SearchModel M, SearchKind K>
struct DfsFrameOps {
  using Frame = DfsFrame<M, K>;
  using Steps = DfsSteps<M, K>;
  static constexpr std::size_t kCut = static_cast<std::size_t>(-1);
  // A frame that has been expanded here and has children left (DfsSteps::more); taking one.
  static bool open(const Frame& f) { return f.gen && Steps::more(*f.gen, f.remaining); }
  static void take(Frame& f) { Steps::take(*f.gen, f.declared, f.remaining); }
  static void checkEnd(const Frame& f) {
    if constexpr (kCheckModels)
      if (f.gen && f.declared != kCut) Steps::Check::atEnd(*f.gen, f.declared);
  }
  static void cutLevel(Frame& f) {  // a failed bound prunes the rest of the level (pruneLevel)
    f.remaining = 0;
    if constexpr (kCheckModels) f.declared = kCut;
  }
};

// Hands away up to `maxTasks` unexplored children of the shallowest frame that has any
// (bound-tested first), or with acrossLevels of the shallowest frames, level after level until
// maxTasks; returns how many went to sink(Node&&, int depth). A value (the rules and a view of the
// frames), so that the engine's own address never escapes its hot loop: a hook passes
// DepthFirst::split() to an out-of-line split, and a pulse builds one over the frames open at a
// visit (DepthFirst::framesAtVisit) without the engine at all.
template <SearchModel M, SearchKind K>
class DfsSplit {
 public:
  using Node = typename SearchTypes<M, K>::Node;
  DfsSplit(NodeRules<M, K>& rules, typename DfsStack<M, K>::View frames) : rules_(&rules), frames_(frames) {}
  template <class Sink>
  std::size_t shallowest(std::size_t maxTasks, Sink&& sink, bool acrossLevels = false) const {
    using Ops = DfsFrameOps<M, K>;
    std::size_t given = 0;
    for (std::size_t i = 0; i < frames_.size() && given < maxTasks && (given == 0 || acrossLevels); ++i) {
      DfsFrame<M, K>& f = frames_[i];
      while (Ops::open(f) && given < maxTasks) {
        Ops::take(f);
        Node c = f.gen->next();
        if (rules_->pruned(c)) {
          if constexpr (ModelTraits<M>::pruneLevel) Ops::cutLevel(f);
          continue;
        }
        sink(std::move(c), f.depth + 1);
        ++given;
      }
    }
    return given;
  }

 private:
  NodeRules<M, K>* rules_;
  typename DfsStack<M, K>::View frames_;
};

template <SearchModel M, SearchKind K, class Hooks = NoHooks>
class DepthFirst {
 public:
  using T = SearchTypes<M, K>;
  using Node = typename T::Node;
  using Generator = typename T::Generator;
  static constexpr bool pruneLevel = ModelTraits<M>::pruneLevel;
  static constexpr bool inPlace = std::default_initializable<Node>;

  DepthFirst(NodeRules<M, K>& rules, Hooks& hooks) : rules_(rules), hooks_(hooks) {}
  // With storage kept by the caller (empty: every engine empties its frames before giving the
  // chunks back): its chunks are this engine's until it is destroyed, the frames the engine's own,
  // so the loop's stack fields stay in registers.
  DepthFirst(NodeRules<M, K>& rules, Hooks& hooks, DfsStack<M, K>& storage)
      : rules_(rules), hooks_(hooks), storage_(&storage) {
    stack_.swapStorage(storage);
  }
  ~DepthFirst() {
    stack_.clear();
    if (storage_) stack_.swapStorage(*storage_);
  }
  DepthFirst(const DepthFirst&) = delete;
  DepthFirst& operator=(const DepthFirst&) = delete;

  // Search the subtree rooted at `root` (bound test and visit of the root included).
  void run(Node root, int depth) {
    stack_.clear();  // the frames of an earlier run() that threw
    if (rules_.stop().requested()) {
      rules_.truncated = true;  // the whole subtree is left unexplored
      if (rules_.unexplored) rules_.unexplored->emplace_back(std::move(root), depth);
      return;
    }
    if (rules_.pruned(root)) return;
    rules_.visit(root, depth);
    if (!rules_.expandable(depth)) return;
    if (rules_.stop().requested()) {
      abandon(root, depth);  // nothing is on the stack yet: only the root's children are cut short
      return;
    }
    Frame& f = stack_.emplace(std::move(root), depth);
    if (!descend(f)) stack_.pop();
    loop();
  }

  using Split = DfsSplit<M, K>;
  Split split() { return Split(rules_, stack_.view()); }

  // The frames on the stack while a task run(root, rootDepth) visits a node at `depth` (a pulse's
  // view of the running task, storage.first(n) of the storage this engine was given): the
  // frame i holds the open node at depth rootDepth + i. At the root's own visit there are none;
  // below it, the visited node's parent and those above it, and the visited node itself when
  // children are built in place (it has no generator yet, so a split passes over it).
  static constexpr std::size_t framesAtVisit(int rootDepth, int depth) {
    if (depth <= rootDepth) return 0;
    return static_cast<std::size_t>(depth - rootDepth) + (inPlace ? 1 : 0);
  }

 private:
  using Frame = DfsFrame<M, K>;
  using Steps = DfsSteps<M, K>;

  // A visited, expandable node sits in frame f: expand it here (true: f stays on the stack), or
  // spawn its children as tasks / count them in bulk at the depth limit (false: f is done).
  bool descend(Frame& f) {
    if constexpr (requires { hooks_.spawnsChildrenOf(f.depth); }) {
      if (hooks_.spawnsChildrenOf(f.depth)) {
        Generator gen = generator(f.node);
        const std::size_t n = Steps::opened(gen);
        std::size_t left = n;
        bool cut = false;
        while (Steps::more(gen, left)) {
          Steps::take(gen, n, left);
          Node c = gen.next();
          if (rules_.pruned(c)) {
            if constexpr (pruneLevel) {
              cut = true;
              break;
            }
            continue;
          }
          hooks_.spawn(std::move(c), f.depth + 1);
        }
        if (!cut) Check::atEnd(gen, n);
        return false;
      }
    }
    if constexpr (NodeRules<M, K>::countsTwoLevels) {
      if (rules_.countsTwoLevelsInBulk(f.depth) && !spawnsChildrenOf(f.depth + 1)) {
        Steps::countTwoLevels(rules_, f.node, f.depth);
        if constexpr (requires { hooks_.afterBacktrack(*this); }) hooks_.afterBacktrack(*this);
        return false;
      }
    }
    if (Steps::countsLeaves(rules_, f.depth)) {
      Steps::countLeaves(rules_, f.node, f.depth);
      return false;
    }
    if constexpr (Steps::seesIncumbent) f.gen.emplace(rules_.space(), f.node, rules_.view());
    else f.gen.emplace(rules_.space(), f.node);
    Steps::countDroppedLeaves(rules_, *f.gen, f.node, f.depth);
    f.remaining = Steps::opened(*f.gen);
    if constexpr (kCheckModels) f.declared = f.remaining;  // only the checked build reads it
    return true;
  }

  Generator generator(const Node& n) { return Steps::generator(rules_, n); }

  bool spawnsChildrenOf(int depth) {
    if constexpr (requires { hooks_.spawnsChildrenOf(depth); }) return hooks_.spawnsChildrenOf(depth);
    else return false;
  }

  // The generator contract, in checked builds (generator_check.hpp); nothing otherwise.
  using Check = typename Steps::Check;
  using Ops = DfsFrameOps<M, K>;

  static void produce(Frame& parent, Node& out) { Steps::produce(*parent.gen, out); }

  void loop() {
    StopFlag& stop = rules_.stop();
    while (!stack_.empty()) {
      Frame& f = stack_.top();
      if (!Steps::more(*f.gen, f.remaining)) {
        Ops::checkEnd(f);
        stack_.pop();
        ++rules_.stats.backtracks;
        if constexpr (requires { hooks_.afterBacktrack(*this); }) hooks_.afterBacktrack(*this);
        continue;
      }
      Ops::take(f);
      const int d = f.depth + 1;
      if constexpr (inPlace) {
        Frame& c = stack_.emplace(d);
        produce(f, c.node);
        if (rules_.pruned(c.node)) {
          stack_.pop();
          if constexpr (pruneLevel) Ops::cutLevel(f);
          continue;
        }
        rules_.visit(c.node, d);
        if (stop.requested()) {
          abandon(c.node, d);
          break;
        }
        if constexpr (requires { hooks_.afterNode(*this); }) hooks_.afterNode(*this);
        if (!rules_.expandable(d) || !descend(c)) stack_.pop();
      } else {
        Node c = f.gen->next();
        if (rules_.pruned(c)) {
          if constexpr (pruneLevel) Ops::cutLevel(f);
          continue;
        }
        rules_.visit(c, d);
        if (stop.requested()) {
          abandon(c, d);
          break;
        }
        if constexpr (requires { hooks_.afterNode(*this); }) hooks_.afterNode(*this);
        if (rules_.expandable(d)) {
          Frame& cf = stack_.emplace(std::move(c), d);
          if (!descend(cf)) stack_.pop();
        }
      }
    }
    stack_.clear();
  }

  // A stop after visiting `visited` (at depth d): work is cut short if it has children or any
  // frame still has unexplored siblings. (Only on the stop path: asking the generator costs
  // nothing per node.) With rules.unexplored set, that work is kept, shallowest first.
  void abandon(const Node& visited, int d) {
    if (rules_.unexplored) {
      keepOpenFrames();
      if (rules_.expandable(d)) keepChildren(visited, d);
      return;
    }
    bool lost = Steps::hasChildren(rules_, visited, d);
    for (std::size_t i = 0; i < stack_.size() && !lost; ++i) lost = Ops::open(stack_[i]);
    if (lost) rules_.truncated = true;
  }
  // Every open frame's unexplored children (a frame without a generator is the node just visited).
  void keepOpenFrames() {
    for (std::size_t i = 0; i < stack_.size(); ++i) {
      Frame& f = stack_[i];
      while (Ops::open(f)) {
        Ops::take(f);
        keep(f.gen->next(), f.depth + 1);
      }
    }
  }
  void keepChildren(const Node& n, int depth) {
    Generator gen = generator(n);
    const std::size_t k = Steps::opened(gen);
    for (std::size_t left = k; Steps::more(gen, left);) {
      Steps::take(gen, k, left);
      keep(gen.next(), depth + 1);
    }
  }
  // A kept child is bound-tested first (a pruned one is not work); the resumed search tests it
  // again, so a level prune (pruneLevel) may simply keep testing siblings here.
  void keep(Node&& c, int depth) {
    rules_.truncated = true;
    if (rules_.pruned(c)) return;
    rules_.unexplored->emplace_back(std::move(c), depth);
  }

  NodeRules<M, K>& rules_;
  Hooks& hooks_;
  DfsStack<M, K> stack_;
  DfsStack<M, K>* storage_ = nullptr;  // the caller's, whose chunks stack_ holds meanwhile
};

}  // namespace jackdaw
