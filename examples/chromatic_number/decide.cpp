// Is the graph k-colourable? A decision through the app frame (search.hpp): the search stops at the
// first colouring with at most k colours (getObj() <= k, minimising); a complete search without one
// proves there is none.
#include <string>

#include "answer.hpp"
#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/run.hpp"
#include "model.hpp"
#include "search.hpp"
#include "space.hpp"

namespace app = jackdaw::app;

// As in minimise.cpp: only what --skeleton auto can choose for a decision is compiled in.
using Skeletons = jackdaw::skeletons::AutoTable<jackdaw::Decision>;

int chromatic::decide(app::AppContext& ctx, const std::string& file, const Graph& g, int k) {
  const Space s = makeSpace(g);
  jackdaw::SearchParams<int> params;
  params.expectedObjective = k;
  const auto r = app::runSearch<Model, jackdaw::Decision, Skeletons>(ctx, s, Node{}, params);
  app::Answer a = instanceAnswer(file, g);
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
