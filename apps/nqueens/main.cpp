// nqueens: count the solutions of the n-queens problem.
#include "jackdaw/app/finish.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/comm/cli_numbers.hpp"
#include "jackdaw/nqueens/model.hpp"

int main(int argc, char** argv) {
  using namespace jackdaw;
  int n = 8;
  auto setup = [&](CLI::App& cli) {
    cli.add_option("-n,--size", n, "Board size n (1..32)")->capture_default_str()->check(comm::cli::whole(1, 32));
  };
  auto body = [&](app::AppContext& ctx) {
    const nqueens::Board board{n};
    SearchParams<long long> params;
    auto r = app::runSearch<nqueens::Model, Enumeration<nqueens::CountSolutions>>(ctx, board, nqueens::makeRoot(board),
                                                                                 params);
    app::Answer a;
    a.line("n", n).line("solutions", r.enumerator.get());
    a.fields["n"] = n;
    a.result["solutions"] = r.enumerator.get();
    return app::finish(ctx, r, a);
  };
  return app::runMain(argc, argv, "nqueens", "N-queens: count all solutions", setup, body);
}
