// sip: is the pattern graph a subgraph of the target graph? (--induced, --count for all embeddings)
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/core/memory_budget.hpp"
#include "jackdaw/sip/model.hpp"

int main(int argc, char** argv) {
  using namespace jackdaw;
  std::string patternFile, targetFile, format = "auto";
  bool induced = false, count = false;
  sip::Options opts;
  std::string valueOrder = "antidegree";  // sip::Options::valueOrder
  bool noNds = false, noRootAc = false, noAllDifferent = false;
  auto setup = [&](CLI::App& cli) {
    cli.add_option("pattern", patternFile, "Pattern graph (LAD, or CSV edge list if it ends in .csv)")->required();
    cli.add_option("target", targetFile, "Target graph (same formats)")->required();
    cli.add_flag("--induced", induced, "Induced subgraph: pattern non-edges must map to target non-edges");
    cli.add_flag("--count", count, "Count every embedding instead of stopping at the first");
    cli.add_option("--format", format, "Input format of both files")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "lad", "csv"}));
    // The model's filtering, each switchable to measure what it buys (include/jackdaw/sip/model.hpp).
    cli.add_option("--path-graphs", opts.pathGraphs,
                   "Supplemental graphs: vertices joined by at least c paths of length 2, c = 1..N (0 = none)")
        ->capture_default_str()
        ->check(CLI::Range(0, 7));
    cli.add_flag("--no-nds", noNds, "No neighbourhood degree sequence filtering at the root");
    cli.add_flag("--no-root-ac", noRootAc, "No arc consistency at the root");
    cli.add_flag("--no-all-different", noAllDifferent, "No Hall-set filtering at each node (only a count check)");
    cli.add_option("--value-order", valueOrder, "Values tried by target degree: ascending (antidegree) or descending (degree)")
        ->capture_default_str()
        ->check(CLI::IsMember({"degree", "antidegree"}));
  };
  auto body = [&](app::AppContext& ctx) -> int {
    const auto fmt = format == "lad" ? sip::Format::Lad : format == "csv" ? sip::Format::Csv : sip::Format::Auto;
    sip::Graph pattern = sip::readGraph(patternFile, fmt, ctx.opts.memoryLimit);
    sip::Graph target = sip::readGraph(targetFile, fmt, ctx.opts.memoryLimit);
    opts.nds = !noNds;
    opts.rootArcConsistency = !noRootAc;
    opts.allDifferent = !noAllDifferent;
    opts.valueOrder = valueOrder == "degree" ? sip::ValueOrder::Degree : sip::ValueOrder::AntiDegree;
    // The supplemental graphs' rows, the root domains and the root node's copy.
    requireMemory(sip::spaceBytes(pattern.n, target.n, opts), ctx.opts.memoryLimit,
                  "the supplemental graphs and domains of " + std::to_string(pattern.n) + " pattern vertices over " +
                      std::to_string(target.n) + " target vertices");
    const sip::Space space = sip::makeSpace(std::move(pattern), std::move(target), induced, opts);
    ctx.log->info("pattern {} vertices, target {} vertices, {}", space.pattern.n, space.target.n,
                  induced ? "induced" : "non-induced");
    app::Answer a;
    a.fields = {{"pattern", patternFile}, {"target", targetFile}, {"induced", induced},
                {"mode", count ? "count" : "decision"}};
    if (count) {
      using Kind = Enumeration<sip::CountSolutions>;
      auto r = app::runSearch<sip::SipModel, Kind>(ctx, space, sip::rootNode(space), {});
      a.line(r.complete() ? "solutions" : "solutions found before interruption", r.enumerator.get());
      a.result["solutions"] = r.enumerator.get();
      return app::finish(ctx, r, a);
    }
    SearchParams<int> params;
    params.expectedObjective = space.pattern.n;
    auto r = app::runSearch<sip::SipModel, Decision>(ctx, space, sip::rootNode(space), params);
    if (r.best) {
      // A wrong embedding would be a bug in the search, never an answer to print.
      if (!sip::isEmbedding(space, r.best->image)) throw std::logic_error("internal error: mapping is not an embedding");
      a.line("SAT");
      std::map<std::string, std::string> mapping;
      for (int p = 0; p < space.pattern.n; ++p) {
        a.line(space.pattern.names[p] + " -> " + space.target.names[r.best->image[p]]);
        mapping[space.pattern.names[p]] = space.target.names[r.best->image[p]];
      }
      a.result["mapping"] = mapping;
      a.exitCode = app::kSuccess;  // an embedding found is the answer, whatever stopped the search
    } else {
      a.line(r.complete() ? "UNSAT" : "UNKNOWN (search interrupted)");
    }
    a.result["satisfiable"] = r.best.has_value();
    return app::finish(ctx, r, a);
  };
  return app::runMain(argc, argv, "sip", "Subgraph isomorphism (LAD / CSV graphs)", setup, body);
}
