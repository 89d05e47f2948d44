// uts: count the nodes, leaves and depth of an Unbalanced Tree Search tree.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <thread>

#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/comm/cli_numbers.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/uts/model.hpp"
#include "jackdaw/uts/presets.hpp"

namespace {

struct UtsOptions {
  std::string tree = "default";
  std::optional<int> t, a, d, m;
  std::optional<double> b, q, f;
  std::optional<std::int32_t> r;
};

std::string presetList() {
  std::string s;
  for (const auto& n : jackdaw::uts::presetNames()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace jackdaw;
  UtsOptions u;
  auto setup = [&](CLI::App& cli) {
    cli.footer(
        "UTS flags keep the ORIGINAL UTS 2.1 meaning but carry a --uts- prefix, because -d and -b\n"
        "already name the spawn depth and the budget: UTS '-t 1 -a 3 -d 10 -b 4 -r 19' is\n"
        "'--uts-t 1 --uts-a 3 --uts-d 10 --uts-b 4 --uts-r 19' (= --tree T1). Note: YewPar numbers\n"
        "--uts-a differently (its 2 is FIXED); here 3 is FIXED as in UTS. --uts-* flags override --tree.");
    namespace num = comm::cli;
    cli.add_option("--tree", u.tree, "Sample tree: " + presetList())->capture_default_str();
    cli.add_option("--uts-t", u.t, "Tree type: 0 binomial, 1 geometric, 2 hybrid, 3 balanced")->check(num::whole(0, 3));
    cli.add_option("--uts-a", u.a, "Geometric shape: 0 linear, 1 exponential decrease, 2 cyclic, 3 fixed")
        ->check(num::whole(0, 3));
    cli.add_option("--uts-d", u.d, "gen_mx: geometric/balanced tree depth (UTS -d)")->check(num::whole(1, 1 << 20));
    cli.add_option("--uts-b", u.b, "b_0: root branching factor (UTS -b)")->check(num::real(0.0, 1e9));
    cli.add_option("--uts-r", u.r, "Root seed (UTS -r)")->check(num::whole<std::int32_t>(INT32_MIN, INT32_MAX));
    cli.add_option("--uts-q", u.q, "Binomial: probability a node has children (UTS -q)")->check(num::real(0.0, 1.0));
    cli.add_option("--uts-m", u.m, "Binomial: children of a non-leaf (UTS -m)")->check(num::whole(0, 1 << 20));
    cli.add_option("--uts-f", u.f, "Hybrid: switch to binomial at depth f*gen_mx (UTS -f)")->check(num::real(0.0, 1.0));
  };
  auto body = [&](app::AppContext& ctx) {
    auto t = uts::preset(u.tree);
    if (!t) throw InputError("--tree " + u.tree + ": unknown tree (known: " + presetList() + ")");
    if (u.t) t->type = static_cast<uts::TreeType>(*u.t);
    if (u.a) t->shape = static_cast<uts::Shape>(*u.a);
    if (u.d) t->genMx = *u.d;
    if (u.b) t->b0 = *u.b;
    if (u.r) t->seed = *u.r;
    if (u.q) t->q = *u.q;
    if (u.m) t->m = *u.m;
    if (u.f) t->shiftDepth = *u.f;
    // A tree that cannot end is refused; one of infinite expected size that may end is counted,
    // stopped by the depth limit if it does not.
    const std::string warning = uts::checkCountable(*t);
    uts::Tree tree(*t);
    const int workers = ctx.opts.skeleton == "seq" ? 1 : ctx.opts.threads > 0 ? ctx.opts.threads
                                                                             : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const std::uint64_t levels = ctx.opts.memoryLimit / (uts::kBytesPerLevel * static_cast<std::uint64_t>(workers));
    tree.maxHeight = static_cast<int>(std::clamp<std::uint64_t>(levels, 1, std::numeric_limits<int>::max()));
    if (!warning.empty() && ctx.rank == 0)
      ctx.log->warn("{} (it stops at a depth of {} levels, which --memory-limit allows)", warning, tree.maxHeight);

    SearchParams<long long> params;
    auto r = app::runSearch<uts::Model, Enumeration<uts::Counts>>(ctx, tree, uts::makeRoot(tree), params);
    const auto& c = r.enumerator.get();
    app::Answer a;
    a.line("tree", u.tree + " (" + uts::describe(*t) + ")");
    a.line("tree nodes", c.nodes).line("leaves", c.leaves).line("max depth", c.maxDepth);
    a.fields["tree"] = {{"name", u.tree}, {"type", static_cast<int>(t->type)}, {"shape", static_cast<int>(t->shape)},
                        {"gen_mx", t->genMx}, {"b0", t->b0}, {"seed", t->seed}, {"q", t->q}, {"m", t->m},
                        {"f", t->shiftDepth}};
    a.result = {{"nodes", c.nodes}, {"leaves", c.leaves}, {"max_depth", c.maxDepth}};
    return app::finish(ctx, r, a);
  };
  return app::runMain(argc, argv, "uts", "Unbalanced Tree Search (UTS 2.1): count a tree's nodes", setup, body);
}
