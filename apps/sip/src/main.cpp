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
  auto setup = [&](CLI::App& cli) {
    cli.add_option("pattern", patternFile, "Pattern graph (LAD, or CSV edge list if it ends in .csv)")->required();
    cli.add_option("target", targetFile, "Target graph (same formats)")->required();
    cli.add_flag("--induced", induced, "Induced subgraph: pattern non-edges must map to target non-edges");
    cli.add_flag("--count", count, "Count every embedding instead of stopping at the first");
    cli.add_option("--format", format, "Input format of both files")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "lad", "csv"}));
  };
  auto body = [&](app::AppContext& ctx) -> int {
    const auto fmt = format == "lad" ? sip::Format::Lad : format == "csv" ? sip::Format::Csv : sip::Format::Auto;
    sip::Graph pattern = sip::readGraph(patternFile, fmt, ctx.opts.memoryLimit);
    sip::Graph target = sip::readGraph(targetFile, fmt, ctx.opts.memoryLimit);
    // The space's root domains and the root node's copy: pattern.n rows of target.words words each.
    requireMemory(saturatingMul(2 * static_cast<std::uint64_t>(pattern.n), static_cast<std::uint64_t>(target.words) * 8),
                  ctx.opts.memoryLimit,
                  "the domains of " + std::to_string(pattern.n) + " pattern vertices over " +
                      std::to_string(target.n) + " target vertices");
    const sip::Space space = sip::makeSpace(std::move(pattern), std::move(target), induced);
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
