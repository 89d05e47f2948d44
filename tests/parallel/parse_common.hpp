// Parses a command line (without the program name) into the apps' shared options, as an app
// would; throws CLI::ParseError on bad input.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "jackdaw/app/options.hpp"

namespace partest {

inline jackdaw::app::CommonOptions parseCommon(std::vector<std::string> args) {
  CLI::App cli{"test"};
  jackdaw::app::CommonOptions o;
  const auto policies = jackdaw::comm::PolicyRegistry::builtin();
  jackdaw::app::addCommonOptions(cli, o, policies);
  std::reverse(args.begin(), args.end());  // CLI11 takes the vector form back to front
  cli.parse(args);
  return o;
}

}  // namespace partest
