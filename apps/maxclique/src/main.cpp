// maxclique: maximum clique (or "is there a clique of size >= K") of a DIMACS graph.
//
//   maxclique brock200_1.clq                 omega and one maximum clique
//   maxclique --decision 21 brock200_1.clq   is there a clique of size >= 21?
//
// Before the search, a short local search (heuristic.hpp, startingClique; where a root colouring's bound is
// well above its clique, a node-budgeted probe for a clique of that bound) finds a clique; its size is the search's
// initial bound, so the search looks only for larger cliques, and if it finds none that clique is
// the answer's witness. In a decision, a clique of at least K from it answers at once, with no
// search. --no-heuristic leaves it out. If the colour-sort order's root proves that nothing beats
// that clique, the search runs in that order (one node); otherwise in degeneracy order.
#include <chrono>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/comm/cli_numbers.hpp"
#include "jackdaw/maxclique/dimacs.hpp"
#include "jackdaw/maxclique/dispatch.hpp"
#include "jackdaw/maxclique/heuristic.hpp"
#include "jackdaw/maxclique/model.hpp"

namespace {

using namespace jackdaw;
using namespace jackdaw::maxclique;

struct Options {
  std::string file;
  std::optional<int> decision;
  bool noHeuristic = false;
};

std::string baseName(const std::string& path) {
  const auto slash = path.find_last_of('/');
  std::string b = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto dot = b.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? b : b.substr(0, dot);
}

std::string joinOneBased(const std::vector<int>& vs) {
  std::ostringstream s;
  for (std::size_t i = 0; i < vs.size(); ++i) s << (i ? " " : "") << vs[i] + 1;
  return s.str();
}

// The answer: the instance, `verdict` as its headline, the clique (original vertices) and the
// initial clique's size and time.
app::Answer answerFor(const Options& o, const DimacsGraph& g, const std::string& verdict, const std::vector<int>& clique,
                      int initialSize, double initialSeconds) {
  app::Answer a;
  a.line("instance", baseName(g.source) + " (" + g.source + ")");
  a.line("vertices", g.n).line("edges", g.edges.size());
  a.line(verdict);
  if (!clique.empty()) a.line("clique", joinOneBased(clique));
  a.fields = {{"instance", baseName(g.source)}, {"file", g.source}, {"vertices", g.n}, {"edges", g.edges.size()},
              {"mode", o.decision ? "decision" : "optimisation"}, {"initial_clique", initialSize},
              {"initial_seconds", initialSeconds}};
  if (o.decision) a.fields["decision_k"] = *o.decision;
  std::vector<int> oneBased;
  for (int v : clique) oneBased.push_back(v + 1);
  a.result["clique"] = oneBased;
  return a;
}

template <std::size_t W, class Kind>
int solve(app::AppContext& ctx, const Options& o, const DimacsGraph& g) {
  using M = MaxClique<W>;
  auto space = M::makeSpace(g);
  SearchParams<int> params;
  if constexpr (isDecision<Kind>) params.expectedObjective = *o.decision;

  // The initial clique: the same on every rank (a fixed seed), so no rank needs to hear of it.
  // The colour-sort order: the heuristic asks its root how large a clique would end the search.
  auto sorted = M::colourSorted(space);
  std::vector<int> initial;
  double initialSeconds = 0;
  if (!o.noHeuristic) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int v : startingClique<W>(space, sorted)) initial.push_back(space.original[static_cast<std::size_t>(v)]);
    std::sort(initial.begin(), initial.end());
    initialSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!isClique(g, initial)) throw std::logic_error("internal error: the initial heuristic returned a non-clique");
    ctx.log->info("initial clique: {} vertices in {:.3f} s", initial.size(), initialSeconds);
  }
  const int initialSize = static_cast<int>(initial.size());

  // The order: degeneracy, unless the colour-sort order proves at its root that nothing beats what
  // is known (the initial clique; in a decision, the goal less one).
  const int known = isDecision<Kind> ? std::max(initialSize, *o.decision - 1) : initialSize;
  // Near the root's bound the search is mostly a proof, and testing every branching vertex pays
  // (docs/maxclique.md, "MaxSAT test").
  const bool nearBound = known > 0 && rootsProve<W>(space, sorted, known + kNearRootBound);
  if (nearBound)
    ctx.log->info("the root's bound is within {} of {}: the MaxSAT test runs on every branching vertex",
                  kNearRootBound, known);
  space.testEveryBranch = sorted.testEveryBranch = nearBound;
  if (known > 0 && (!isDecision<Kind> || initialSize < *o.decision)) {
    if (M::rootProves(sorted, known)) {
      ctx.log->info("colour-sort order: its root colouring proves no clique above {}", known);
      space = std::move(sorted);
    }
  }

  if constexpr (isDecision<Kind>) {
    if (initialSize >= *o.decision) {  // answered by the heuristic: no search
      app::checkSetupAcrossRanks(ctx);
      ctx.startup.searchStarts();
      app::Answer a =
          answerFor(o, g, "clique of size >= " + std::to_string(*o.decision) + ": found (by the initial heuristic)",
                    initial, initialSize, initialSeconds);
      a.result["found"] = true;
      return app::finish(ctx, SearchStats{}, 0.0, StopReason::Found, a);
    }
  } else {
    // Only larger cliques count from here; none found means the initial clique is the answer.
    if (initialSize > 0) params.initialBound = initialSize;
  }
  ctx.log->info("searching with {} bitset words", W);
  const auto r = app::runSearch<M, Kind>(ctx, space, M::root(space), params);

  std::vector<int> clique;
  if constexpr (!isDecision<Kind>) clique = initial;
  if (r.best) {
    clique = M::originalVertices(space, *r.best);
    // A wrong answer must never be printed as a result.
    if (!isClique(g, clique) || static_cast<int>(clique.size()) != r.best->size)
      throw std::logic_error("internal error: the search returned vertices that are not a clique of size " +
                             std::to_string(r.best->size));
  }

  const std::string partial = r.complete() ? "" : " (search interrupted: partial result)";
  std::string verdict;
  if constexpr (isDecision<Kind>)
    verdict = "clique of size >= " + std::to_string(*o.decision) + ": " + (r.best ? "found" : "none") + partial;
  else
    verdict = (r.complete() ? "omega = " : "omega >= ") + std::to_string(clique.size()) + partial;
  app::Answer a = answerFor(o, g, verdict, clique, initialSize, initialSeconds);
  if constexpr (isDecision<Kind>)
    a.result["found"] = r.best.has_value();
  else
    a.result["omega"] = clique.size();
  return app::finish(ctx, r, a);
}

int body(app::AppContext& ctx, const Options& o) {
  const DimacsGraph g = readDimacs(o.file, ctx.opts.memoryLimit);
  if (!g.declaredEdgesMatch())
    ctx.log->warn("{}: the 'p' line states {} edges, the file lists {} distinct edges (using the edges listed)",
                  g.source, g.declaredEdges, g.edges.size());
  return withWordsFor(g.n, [&](auto words) {
    constexpr std::size_t W = decltype(words)::value;
    return o.decision ? solve<W, Decision>(ctx, o, g) : solve<W, Optimisation>(ctx, o, g);
  });
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  return jackdaw::app::runMain(
      argc, argv, "maxclique", "Maximum clique of a DIMACS graph (MCSa-style bitset branch and bound)",
      [&](CLI::App& cli) {
        cli.add_option("file,--input", o.file, "DIMACS graph file ('p edge N M' / 'e u v')")->required();
        cli.add_option("--decision", o.decision, "Decision mode: is there a clique of at least K vertices?")
            ->check(jackdaw::comm::cli::whole(1, 1 << 30));
        cli.add_flag("--no-heuristic", o.noHeuristic,
                     "Start the search with no initial clique (the search must find every clique itself)");
      },
      [&](jackdaw::app::AppContext& ctx) { return body(ctx, o); });
}
