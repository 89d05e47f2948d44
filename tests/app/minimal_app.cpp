// The smallest app: no options of its own, no --stats code. The frame must still write --stats.
#include <iostream>

#include "../core/toy_models.hpp"
#include "jackdaw/app/main.hpp"
#include "jackdaw/app/run.hpp"

int main(int argc, char** argv) {
  return jackdaw::app::runMain(argc, argv, "minimal", "8 queens, counted", [](jackdaw::app::AppContext& ctx) {
    auto r = jackdaw::app::runSearch<toy::Queens, jackdaw::Enumeration<toy::CountSolutions>>(
        ctx, toy::Queens::Space{8}, toy::Queens::Node{}, {});
    std::cout << "solutions: " << r.enumerator.get() << "\n";
    return r.complete() ? jackdaw::app::kSuccess : jackdaw::app::kPartial;
  });
}
