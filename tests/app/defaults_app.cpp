// An app with its own defaults for -b and -d (default_val in setup); the command line overrides them.
// It ends with finish, as the shipped apps do: its answer, then the common summary and --stats.
#include "../core/toy_models.hpp"
#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"

int main(int argc, char** argv) {
  int n = 8;
  auto setup = [&](CLI::App& cli) {
    cli.add_option("-n", n, "Board size")->capture_default_str();
    cli.get_option("--budget")->default_val(1234);
    cli.get_option("--spawn-depth")->default_val(3);
  };
  auto body = [&](jackdaw::app::AppContext& ctx) {
    auto r = jackdaw::app::runSearch<toy::Queens, jackdaw::Enumeration<toy::CountSolutions>>(
        ctx, toy::Queens::Space{n}, toy::Queens::Node{}, {});
    jackdaw::app::Answer a;
    a.line("solutions", r.enumerator.get());
    a.fields["n"] = n;
    a.result["solutions"] = r.enumerator.get();
    return jackdaw::app::finish(ctx, r, a);
  };
  return jackdaw::app::runMain(argc, argv, "defaults", "n queens, counted", setup, body);
}
