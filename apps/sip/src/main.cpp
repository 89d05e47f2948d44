// sip: is the pattern graph a subgraph of the target graph? (--induced, --count for all embeddings)
//
// A decision first runs a bounded probe in the other value order (sip::probe, --probe-nodes; the
// same on every rank, so no rank needs to hear of it); an embedding it finds is the answer, and
// otherwise the complete search runs as if there had been no probe.
#include <chrono>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/comm/cli_numbers.hpp"
#include "jackdaw/core/memory_budget.hpp"
#include "jackdaw/sip/model.hpp"

int main(int argc, char** argv) {
  using namespace jackdaw;
  std::string patternFile, targetFile, format = "auto";
  bool induced = false, count = false;
  sip::Options opts;
  std::string valueOrder = "antidegree";  // sip::Options::valueOrder
  bool noNds = false, noRootAc = false, noAllDifferent = false;
  std::int64_t probeNodes = 1000;
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
    cli.add_option("--probe-nodes", probeNodes,
                   "Decisions: nodes of a first search in the other value order before the complete one (0 = none)")
        ->capture_default_str()
        ->check(comm::cli::whole<std::int64_t>(0, std::int64_t{1} << 40));
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
    // An embedding is printed only after it is checked: a wrong one would be a bug, never an answer.
    auto sat = [&](const std::vector<std::int32_t>& image) {
      if (!sip::isEmbedding(space, image)) throw std::logic_error("internal error: mapping is not an embedding");
      a.line("SAT");
      std::map<std::string, std::string> mapping;
      for (int p = 0; p < space.pattern.n; ++p) {
        a.line(space.pattern.names[p] + " -> " + space.target.names[image[p]]);
        mapping[space.pattern.names[p]] = space.target.names[image[p]];
      }
      a.result["mapping"] = mapping;
      a.result["satisfiable"] = true;
      a.exitCode = app::kSuccess;  // an embedding found is the answer, whatever stopped the search
    };
    if (probeNodes > 0) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto order = opts.valueOrder == sip::ValueOrder::Degree ? sip::ValueOrder::AntiDegree : sip::ValueOrder::Degree;
      const auto pr = sip::probe(space, order, static_cast<std::uint64_t>(probeNodes));
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ctx.log->info("probe: {} nodes in {:.3f} s, {}", pr.nodes, seconds, pr.image ? "an embedding" : "none found");
      a.fields["probe_nodes"] = pr.nodes;
      a.fields["probe_seconds"] = seconds;
      if (pr.image) {  // answered by the probe: no search
        app::checkSetupAcrossRanks(ctx);
        ctx.startup.searchStarts();
        a.fields["found_by"] = "probe";
        sat(*pr.image);
        SearchStats stats;
        stats.nodes = pr.nodes;
        return app::finish(ctx, stats, seconds, StopReason::Found, a);
      }
    }
    SearchParams<int> params;
    params.expectedObjective = space.pattern.n;
    auto r = app::runSearch<sip::SipModel, Decision>(ctx, space, sip::rootNode(space), params);
    if (r.best) {
      sat(r.best->image);
    } else {
      a.line(r.complete() ? "UNSAT" : "UNKNOWN (search interrupted)");
      a.result["satisfiable"] = false;
    }
    return app::finish(ctx, r, a);
  };
  return app::runMain(argc, argv, "sip", "Subgraph isomorphism (LAD / CSV graphs)", setup, body);
}
