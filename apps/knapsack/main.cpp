// knapsack: solve a 0/1 knapsack instance exactly by branch and bound.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/core/memory_budget.hpp"
#include "jackdaw/knapsack/model.hpp"
#include "jackdaw/knapsack/reader.hpp"

namespace {

// Whole numbers print as such (every number here is at most 2^53); real-valued profits with six decimals.
std::string show(double v) {
  char buf[64];
  if (v == std::floor(v) && std::abs(v) <= jackdaw::knapsack::kMaxValue) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace jackdaw;
  std::string file, formatName = "auto", instanceName;
  auto setup = [&](CLI::App& cli) {
    cli.add_option("file", file, "Instance file (YewPar .kp, instances_01_KP, or Pisinger CSV)")->required();
    cli.add_option("--format", formatName, "auto, yewpar, kp01, pisinger")->capture_default_str();
    cli.add_option("--instance", instanceName, "Pisinger CSV: the instance (block name) to solve");
  };
  auto body = [&](app::AppContext& ctx) {
    const auto inst = knapsack::readInstance(file, knapsack::parseFormat(formatName), instanceName, ctx.opts.memoryLimit);
    const knapsack::Space space(inst);
    requireMemory(space.pathBytes(), ctx.opts.memoryLimit, "the nodes of one search path of " + file);
    SearchParams<double> params;
    auto r = app::runSearch<knapsack::Model, Optimisation>(ctx, space, space.root(), params);

    app::Answer a;
    a.line("instance", inst.name + " (" + std::to_string(inst.items.size()) + " items, capacity " + show(inst.capacity) +
                           ")");
    if (r.best) {
      const auto labels = space.labels(*r.best);
      std::ostringstream items;
      for (std::size_t i = 0; i < labels.size(); ++i) items << (i ? " " : "") << labels[i];
      a.line("profit", show(r.best->profit)).line("weight", show(r.best->weight)).line("items", items.str());
      a.result = {{"profit", r.best->profit}, {"weight", r.best->weight}, {"items", labels}};
    }
    if (inst.knownOptimum) a.line("known optimum (from file)", show(*inst.knownOptimum));

    a.fields["instance"] = {{"file", file}, {"name", inst.name}, {"items", inst.items.size()}, {"capacity", inst.capacity}};
    if (inst.knownOptimum) a.fields["instance"]["known_optimum"] = *inst.knownOptimum;
    return app::finish(ctx, r, a);
  };
  return app::runMain(argc, argv, "knapsack", "0/1 knapsack by branch and bound (Dantzig bound)", setup, body);
}
