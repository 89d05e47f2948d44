// ns: count numerical semigroups of genus 0..G.
#include <cstdint>
#include <string>
#include <vector>

#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/comm/cli_numbers.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/ns/dispatch.hpp"

namespace {

// What the app needs of a result, the same type for every kernel variant.
struct Summary {
  std::vector<std::uint64_t> counts;
  jackdaw::SearchStats stats;
  double seconds = 0;
  jackdaw::StopReason stop = jackdaw::StopReason::None;
};

// Parallel and distributed skeletons run out of line: flattening them into every SIMD variant
// (dispatch.hpp) would inline the whole runtime and comm layer four times over. Their tasks'
// loops are still compiled per variant, through Model::hot.
template <class M>
[[gnu::noinline]] jackdaw::SearchResult<M, jackdaw::ns::Kind> runParallel(jackdaw::app::AppContext& ctx,
                                                                        const jackdaw::ns::Space& space,
                                                                        const jackdaw::SearchParams<long long>& p) {
  return jackdaw::app::runSearch<M, jackdaw::ns::Kind>(ctx, space, M::root(), p);
}
}  // namespace

int main(int argc, char** argv) {
  using namespace jackdaw;
  int genus = -1;
  std::string simdName = "auto";
  std::string leaves = "count";
  auto setup = [&](CLI::App& cli) {
    cli.add_option("-g,--genus", genus, "Count the semigroups of genus 0..G")
        ->required()
        ->check(comm::cli::whole(0, ns::kMaxGenus));
    cli.add_option("--simd", simdName, "Kernels: auto (widest the CPU has), avx512, avx2, sse2, scalar")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "avx512", "avx2", "sse2", "scalar"}));
    cli.add_option("--leaves", leaves,
                   "count: the tree's leaves are counted from their parent, not built (the unleaved tree); "
                   "build: every node is built. The same counts")
        ->capture_default_str()
        ->check(CLI::IsMember({"count", "build"}));
  };
  auto body = [&](app::AppContext& ctx) -> int {
    const ns::Simd simd = *ns::parseSimd(simdName);
    if (!ns::cpuHas(simd)) throw InputError("--simd " + simdName + ": this CPU lacks the instructions");
    SearchParams<long long> params;
    params.maxDepth = genus;
    const ns::Space space{.buildLeaves = leaves == "build"};
    const Summary s = ns::withModel(simd, genus, [&]<class M>() {
      SearchResult<M, ns::Kind> r;
      if (app::settleSkeleton<ns::Kind>(ctx) == "seq" && ctx.size == 1) {
        app::checkSetupAcrossRanks(ctx);
        app::ProgressLog progress(ctx);
        r = seq::search<M, ns::Kind>(space, M::root(), params, ctx.stop, &ctx.features->progress.live);
      } else {
        r = runParallel<M>(ctx, space, params);
      }
      const auto& c = r.enumerator.get();
      return Summary{{c.begin(), c.begin() + genus + 1}, r.stats, r.seconds, r.stop};
    });

    app::Answer a;
    std::uint64_t total = 0;
    for (int g = 0; g <= genus; ++g) {
      a.line(std::to_string(g), s.counts[g]);
      total += s.counts[g];
    }
    a.line("total", total);
    a.line("simd", std::string(ns::toString(simd)) + " (node size " + std::to_string(ns::nodeSizeFor(genus)) + ")");
    a.fields = {{"genus", genus}, {"simd", ns::toString(simd)}, {"node_size", ns::nodeSizeFor(genus)}, {"leaves", leaves}};
    a.result = {{"counts", s.counts}, {"total", total}};
    return app::finish(ctx, s.stats, s.seconds, s.stop, a);
  };
  return app::runMain(argc, argv, "ns", "Count numerical semigroups by genus", setup, body);
}
