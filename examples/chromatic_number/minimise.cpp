// The fewest colours: branch and bound, minimising, through the app frame (search.hpp).
#include "answer.hpp"
#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/run.hpp"
#include "model.hpp"
#include "search.hpp"
#include "space.hpp"

namespace app = jackdaw::app;

// Only the skeletons --skeleton auto can choose for this kind (seq and one parallel skeleton) are
// compiled in: a one-line change of model.hpp rebuilds faster than with all five (bench/results/compile.md).
// --skeleton names either of them; another is refused with the list (exit 2).
using Skeletons = jackdaw::skeletons::AutoTable<jackdaw::Optimisation>;

// Every colouring of n vertices uses at most n colours, so initialBound n + 1 lets the first one
// count; the first dive is DSATUR's greedy one.
int chromatic::minimise(app::AppContext& ctx, const std::string& file, const Graph& g) {
  const Space s = makeSpace(g);
  jackdaw::SearchParams<int> params;
  params.initialBound = g.n + 1;
  const auto r = app::runSearch<Model, jackdaw::Optimisation, Skeletons>(ctx, s, Node{}, params);
  app::Answer a = instanceAnswer(file, g);
  a.fields["mode"] = "optimisation";
  if (r.best) {  // interrupted, this is the best so far: the frame marks it partial (docs/writing-an-app.md)
    const auto c = checkedColouring(g, *r.best, *r.objective);
    a.line("chromatic number", *r.objective).line("colouring", joined(c));
    a.result = {{"chromatic_number", *r.objective}, {"colouring", c}};
  }
  return app::finish(ctx, r, a);
}
