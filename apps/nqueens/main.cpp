// nqueens: count the solutions of the n-queens problem.
#include <iostream>

#include "jackdaw/app/main.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/nqueens/model.hpp"

int main(int argc, char** argv) {
  using namespace jackdaw;
  int n = 8;
  auto setup = [&](CLI::App& cli) {
    cli.add_option("-n,--size", n, "Board size n (1..32)")->capture_default_str()->check(CLI::Range(1, 32));
  };
  auto body = [&](app::AppContext& ctx) {
    const nqueens::Board board{n};
    SearchParams<long long> params;
    auto r = app::runSearch<nqueens::Model, Enumeration<nqueens::CountSolutions>>(ctx, board, nqueens::makeRoot(board),
                                                                                 params);
    std::cout << "n: " << n << "\nSolutions: " << r.enumerator.get() << "\nNodes: " << r.stats.nodes
              << "\nTime: " << r.seconds << " s\n";
    auto doc = app::runJson(ctx, r.stats, r.seconds, r.stop);
    doc["app"] = "nqueens";
    doc["n"] = n;
    doc["solutions"] = r.enumerator.get();
    app::writeStats(ctx, doc);
    return r.complete() ? app::kSuccess : app::kPartial;
  };
  return app::runMain(argc, argv, "nqueens", "N-queens: count all solutions", setup, body);
}
