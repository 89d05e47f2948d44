// The search of the chromatic example (search.hpp): the model through the app frame, for the
// fewest colours (minimise) and for "do k colours suffice?" (decide).
#include "search.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/run.hpp"
#include "model.hpp"
#include "space.hpp"

namespace {

using chromatic::Model;
namespace app = jackdaw::app;

// Only the skeletons --skeleton auto can choose for this kind (seq and one parallel skeleton) are
// compiled in: a one-line change of model.hpp rebuilds in a quarter less time than with all five.
// --skeleton names any of them; another is refused with the list (exit 2).
template <class Kind>
using Skeletons = jackdaw::skeletons::AutoTable<Kind>;

// A colouring as the answer shows it, after checking it: a wrong answer must never be printed.
std::vector<int> checkedColouring(const chromatic::Graph& g, const chromatic::Node& node, int colours) {
  std::vector<int> c(node.colour.begin(), node.colour.begin() + g.n);
  bool proper = node.complete;
  for (const auto& [u, v] : g.edges) proper = proper && c[u] != c[v];
  for (int x : c) proper = proper && x >= 0 && x < colours;
  if (!proper) throw std::logic_error("internal error: the search returned a colouring that is not proper");
  return c;
}

std::string joined(const std::vector<int>& xs) {
  std::string s;
  for (int x : xs) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

// The answer's first lines and --stats fields: the instance.
app::Answer instance(const std::string& file, const chromatic::Graph& g) {
  app::Answer a;
  a.line("graph", file + " (" + std::to_string(g.n) + " vertices, " + std::to_string(g.edges.size()) + " edges)");
  a.fields = {{"file", file}, {"vertices", g.n}, {"edges", g.edges.size()}};
  return a;
}

// The fewest colours: branch and bound, minimising. Every colouring of n vertices uses at most n
// colours, so initialBound n + 1 lets the first one count; the first dive is DSATUR's greedy one.
int minimise(app::AppContext& ctx, const std::string& file, const chromatic::Graph& g, const chromatic::Space& s) {
  jackdaw::SearchParams<int> params;
  params.initialBound = g.n + 1;
  const auto r = app::runSearch<Model, jackdaw::Optimisation, Skeletons<jackdaw::Optimisation>>(ctx, s, chromatic::Node{}, params);
  app::Answer a = instance(file, g);
  a.fields["mode"] = "optimisation";
  if (r.best) {  // interrupted, this is the best so far: the frame marks it partial (docs/writing-an-app.md)
    const auto c = checkedColouring(g, *r.best, *r.objective);
    a.line("chromatic number", *r.objective).line("colouring", joined(c));
    a.result = {{"chromatic_number", *r.objective}, {"colouring", c}};
  }
  return app::finish(ctx, r, a);
}

// Is the graph k-colourable? A decision: the search stops at the first colouring with at most k
// colours (getObj() <= k, minimising); a complete search without one proves there is none.
int decide(app::AppContext& ctx, const std::string& file, const chromatic::Graph& g, const chromatic::Space& s, int k) {
  jackdaw::SearchParams<int> params;
  params.expectedObjective = k;
  const auto r = app::runSearch<Model, jackdaw::Decision, Skeletons<jackdaw::Decision>>(ctx, s, chromatic::Node{}, params);
  app::Answer a = instance(file, g);
  a.fields["mode"] = "decision";
  a.fields["decide_k"] = k;
  a.line("colourable with " + std::to_string(k) + " colours", r.found() ? "yes" : "no");
  a.result = {{"colourable", r.found()}};
  if (r.found()) {
    const auto c = checkedColouring(g, *r.best, k);
    a.line("colouring", joined(c));
    a.result["colouring"] = c;
  }
  return app::finish(ctx, r, a);
}

}  // namespace

int chromatic::solve(app::AppContext& ctx, const std::string& file, const Graph& g, std::optional<int> k) {
  const Space s = makeSpace(g);
  return k ? decide(ctx, file, g, s, *k) : minimise(ctx, file, g, s);
}
