#include "jackdaw/app/main.hpp"

#include <exception>
#include <iostream>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "jackdaw/core/errors.hpp"

namespace jackdaw::app {

namespace {
std::shared_ptr<spdlog::logger> makeLogger(const std::string& name) {
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  auto log = std::make_shared<spdlog::logger>(name, sink);
  log->set_pattern("[%H:%M:%S.%e] [" + name + " rank 0] [%l] %v");
  return log;
}
}  // namespace

int runMain(int argc, char** argv, const std::string& name, const std::string& description,
            const std::function<void(CLI::App&)>& setup, const std::function<int(AppContext&)>& body) {
  AppContext ctx;
  ctx.log = makeLogger(name);
  CLI::App cli(description, name);
  addCommonOptions(cli, ctx.opts);
  try {
    setup(cli);
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return cli.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return cli.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << name << ": error: " << e.what() << "\n(run with --help for the options)\n";
    return kBadInput;
  }
  ctx.log->set_level(spdlog::level::from_str(ctx.opts.logLevel));
  try {
    validate(ctx.opts);
    return body(ctx);
  } catch (const InputError& e) {
    std::cerr << name << ": error: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << name << ": error: " << e.what() << "\n";
    return kFailure;
  }
}

}  // namespace jackdaw::app
