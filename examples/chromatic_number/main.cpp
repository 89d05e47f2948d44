// chromatic: the chromatic number of a DIMACS graph (at most 64 vertices), or with --decide K
// whether K colours suffice, through the app frame: every common option (--skeleton, --threads,
// --stats, --progress, --checkpoint/--resume, signals, exit codes) comes with it.
//
//   chromatic myciel4.col                        chromatic number: 5, on every core (--skeleton auto)
//   chromatic queen6_6.col --decide 6            colourable with 6 colours: no
//   mpirun -n 4 chromatic queen7_7.col           four ranks, no other flag needed
//   chromatic queen8_8.col --checkpoint ck       Ctrl-C saves the work; --resume ck finishes it
//
// The files: model.hpp (the search tree), space.hpp (its data from a graph), minimise.cpp and
// decide.cpp (the two searches through the frame, declared in search.hpp; answer.hpp what they
// print), reader.cpp (the DIMACS reader), and this command line.
#include <optional>
#include <string>

#include "graph.hpp"
#include "jackdaw/app/main.hpp"
#include "search.hpp"

int main(int argc, char** argv) {
  std::string file;
  std::optional<int> k;
  auto setup = [&](CLI::App& cli) {
    // A file option enters a checkpoint's identity by its contents (SHA-1): --resume refuses
    // another graph, whatever its name.
    cli.add_option("file", file, "DIMACS graph ('p edge N M', 'e U V'), at most 64 vertices")->required();
    cli.add_option("--decide", k, "Decide only: can the graph be coloured with K colours?")
        ->check(CLI::Range(1, chromatic::kMaxVertices));
  };
  auto body = [&](jackdaw::app::AppContext& ctx) {
    // Bad input throws jackdaw::InputError (FILE:LINE: what): exit 2, one message, every rank.
    const chromatic::Graph g = chromatic::readDimacs(file, chromatic::kMaxVertices, ctx.opts.memoryLimit);
    return k ? chromatic::decide(ctx, file, g, *k) : chromatic::minimise(ctx, file, g);
  };
  return jackdaw::app::runMain(argc, argv, "chromatic", "Chromatic number of a graph (DSATUR branch and bound)", setup, body);
}
