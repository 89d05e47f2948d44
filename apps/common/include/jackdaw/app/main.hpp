// The frame of an app's main(): logging, argument parsing, and turning every error into one
// clear message and a non-zero exit.
//
//   int main(int argc, char** argv) {
//     return jackdaw::app::runMain(argc, argv, "maxclique", "Maximum clique", setup, body);
//   }
//
// body runs the search (run.hpp) and ends with app::finish (finish.hpp): the app's answer, the
// summary every app prints, --stats and the exit code.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "jackdaw/app/context.hpp"
#include "jackdaw/comm/policy.hpp"

namespace jackdaw::app {

// setup adds the app's own options to the CLI (and may change a common option's default, e.g.
// cli.get_option("--budget")->default_val(1000); the command line still overrides it); body runs
// once parsing and validation succeeded and returns the exit code. If the app asked for --stats
// but wrote none, the frame writes the common part of the document for the last search.
// `policies` are the victim policies --policy may name (default: the
// built-in ones; add your own with PolicyRegistry::add, see comm/policy.hpp).
int runMain(int argc, char** argv, const std::string& name, const std::string& description,
            const std::function<void(CLI::App&)>& setup, const std::function<int(AppContext&)>& body,
            const comm::PolicyRegistry& policies);
int runMain(int argc, char** argv, const std::string& name, const std::string& description,
            const std::function<void(CLI::App&)>& setup, const std::function<int(AppContext&)>& body);
// An app with no options of its own.
int runMain(int argc, char** argv, const std::string& name, const std::string& description,
            const std::function<int(AppContext&)>& body);

}  // namespace jackdaw::app
