// sip: is the pattern graph a subgraph of the target graph? (--induced, --count for all embeddings)
#include <iostream>
#include <map>

#include "jackdaw/app/main.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/run.hpp"
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
    const sip::Space space = sip::makeSpace(sip::readGraph(patternFile, fmt), sip::readGraph(targetFile, fmt), induced);
    ctx.log->info("pattern {} vertices, target {} vertices, {}", space.pattern.n, space.target.n,
                  induced ? "induced" : "non-induced");
    nlohmann::json doc;
    int exit = app::kSuccess;
    if (count) {
      using Kind = Enumeration<sip::CountSolutions>;
      auto r = app::runSearch<sip::SipModel, Kind>(ctx, space, sip::rootNode(space), {});
      std::cout << (r.complete() ? "solutions: " : "solutions found before interruption: ") << r.enumerator.get()
                << "\n";
      doc = app::runJson(ctx, r.stats, r.seconds, r.stop);
      doc["solutions"] = r.enumerator.get();
      if (!r.complete()) exit = app::kPartial;
    } else {
      SearchParams<int> params;
      params.expectedObjective = space.pattern.n;
      auto r = app::runSearch<sip::SipModel, Decision>(ctx, space, sip::rootNode(space), params);
      doc = app::runJson(ctx, r.stats, r.seconds, r.stop);
      if (r.best) {
        // A wrong embedding would be a bug in the search, never an answer to print.
        if (!sip::isEmbedding(space, r.best->image)) throw std::logic_error("internal error: mapping is not an embedding");
        std::cout << "SAT\n";
        std::map<std::string, std::string> mapping;
        for (int p = 0; p < space.pattern.n; ++p) {
          std::cout << space.pattern.names[p] << " -> " << space.target.names[r.best->image[p]] << "\n";
          mapping[space.pattern.names[p]] = space.target.names[r.best->image[p]];
        }
        doc["mapping"] = mapping;
      } else if (r.complete()) {
        std::cout << "UNSAT\n";
      } else {
        std::cout << "UNKNOWN (search interrupted)\n";
        exit = app::kPartial;
      }
      doc["satisfiable"] = r.best.has_value();
    }
    doc["app"] = "sip";
    doc["pattern"] = patternFile;
    doc["target"] = targetFile;
    doc["induced"] = induced;
    app::writeStats(ctx, doc);
    return exit;
  };
  return app::runMain(argc, argv, "sip", "Subgraph isomorphism (LAD / CSV graphs)", setup, body);
}
