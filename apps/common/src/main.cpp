#include "jackdaw/app/main.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <optional>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "jackdaw/app/checkpoint.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/run.hpp"
#include "jackdaw/app/safe_file.hpp"
#include "jackdaw/app/signals.hpp"
#include "jackdaw/app/trace_file.hpp"
#include "jackdaw/comm/collectives.hpp"
#include "jackdaw/comm/failure.hpp"
#include "jackdaw/comm/runtime.hpp"
#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/input_file.hpp"

namespace jackdaw::app {

namespace {
std::shared_ptr<spdlog::logger> makeLogger(const std::string& name, int rank) {
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  auto log = std::make_shared<spdlog::logger>(name, sink);
  log->set_pattern("[%H:%M:%S.%e] [" + name + " rank " + std::to_string(rank) + "] [%l] %v");
  return log;
}

// One message for the whole job. A set-up error on some ranks reaches the others through the
// collective check in runSearch (they wait there); rank 0 prints the lowest failing rank's message.
// The app's own options (those setup() added), with their values: what a checkpoint must match.
std::vector<std::pair<std::string, std::string>> appOptions(CLI::App& cli, const std::vector<CLI::Option*>& common) {
  std::vector<std::pair<std::string, std::string>> out;
  for (CLI::Option* o : cli.get_options()) {
    if (std::find(common.begin(), common.end(), o) != common.end()) continue;
    std::string value;
    if (o->count() > 0)
      for (const auto& r : o->results()) value += (value.empty() ? "" : " ") + r;
    else
      value = o->get_default_str();
    out.emplace_back(o->get_name(), value);
  }
  return out;
}

// The files the app's own options name (its instance): no output may be one of them.
std::vector<std::string> inputFiles(const std::vector<std::pair<std::string, std::string>>& options) {
  std::vector<std::string> out;
  for (const auto& [name, value] : options) {
    std::error_code ec;
    if (!value.empty() && std::filesystem::is_regular_file(value, ec)) out.push_back(value);
  }
  return out;
}

// Every output file, at set-up on rank 0 (safe_file.hpp), and no two of them the same file.
void checkOutputs(const CommonOptions& o, const std::vector<std::string>& inputs) {
  const std::pair<const char*, const std::string*> outputs[] = {
      {"--stats", &o.statsFile}, {"--timeline", &o.timelineFile}, {"--trace", &o.traceFile}};
  for (std::size_t i = 0; i < std::size(outputs); ++i) {
    const auto& [option, path] = outputs[i];
    checkOutputPath(option, *path, inputs);
    for (std::size_t j = 0; j < i; ++j) {
      std::error_code ec;
      const auto& [other, otherPath] = outputs[j];
      if (!path->empty() && !otherPath->empty() &&
          std::filesystem::weakly_canonical(*path, ec) == std::filesystem::weakly_canonical(*otherPath, ec))
        throw InputError(std::string(option) + " " + *path + ": the same file as " + other + "; give each output its own file");
    }
  }
}

// Standard output closed when the process started (`app >&-`): fd 1 is then held by /dev/null,
// read-only, so that no file this process opens lands on it and every write fails, as it should.
bool gStdoutClosed = false;
void holdStandardDescriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    if (fd == 1) gStdoutClosed = true;
    const int held = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (held >= 0 && held != fd) {
      ::dup2(held, fd);
      ::close(held);
    }
  }
}

// After the answer (every rank): rank 0 flushes stdout and checks it took everything, then prints
// one line for each output that could not be written. A run that would exit 0 then exits 4 on
// every rank; an interrupted (3) or failed one keeps its code. Collective on several ranks.
int settleOutputs(AppContext& ctx, const std::string& name, int code) {
  if (ctx.rank == 0) {
    print(ctx, "");  // flushes
    errno = 0;
    if (std::fflush(stdout) != 0 && ctx.stdoutErrno == 0) ctx.stdoutErrno = errno != 0 ? errno : EIO;
    if (gStdoutClosed)
      ctx.undelivered.push_back("standard output is closed: the answer was not printed");
    else if (ctx.stdoutErrno != 0 || std::ferror(stdout))
      ctx.undelivered.push_back(std::string("standard output: the answer could not be written") +
                                (ctx.stdoutErrno != 0 ? " (" + std::string(std::strerror(ctx.stdoutErrno)) + ")" : ""));
    for (const auto& line : ctx.undelivered) std::cerr << name << ": error: " << line << "\n";
  }
  bool undelivered = !ctx.undelivered.empty();
  // --checkpoint's lock is released before any rank exits: mpirun ends a job as soon as one rank
  // exits non-zero (an interrupted search exits 3), and would otherwise return while rank 0
  // still holds the lock, so that a leg started right after found the folder in use.
  if (ctx.size > 1) {
    ctx.checkpointLock.reset();
    undelivered = comm::anyRank(ctx.world, undelivered);
  }
  return undelivered && code == kSuccess ? kUndelivered : code;
}

int failSetup(AppContext& ctx, const std::string& name, const std::string& message, int code) {
  if (ctx.size == 1) {
    std::cerr << name << ": error: " << message << "\n";
    return code;
  }
  if (!ctx.setupChecked) {
    comm::collectiveCheck(ctx.world, name + ": error: " + message);
    return code;
  }
  ctx.checkpointLock.reset();  // abortJob ends the process without destructors
  comm::abortJob(ctx.rank, name + ": error: " + message, code);  // mid-search: no agreement possible
}
}  // namespace

int runMain(int argc, char** argv, const std::string& name, const std::string& description,
            const std::function<void(CLI::App&)>& setup, const std::function<int(AppContext&)>& body) {
  return runMain(argc, argv, name, description, setup, body, comm::PolicyRegistry::builtin());
}

int runMain(int argc, char** argv, const std::string& name, const std::string& description,
            const std::function<int(AppContext&)>& body) {
  return runMain(argc, argv, name, description, [](CLI::App&) {}, body, comm::PolicyRegistry::builtin());
}

int runMain(int argc, char** argv, const std::string& name, const std::string& description,
            const std::function<void(CLI::App&)>& setup, const std::function<int(AppContext&)>& body,
            const comm::PolicyRegistry& policies) {
  // First, before MPI starts: a signal during start-up, parsing or reading ends the process with
  // exit code 3 (signals.hpp); once the search runs, it stops the search cleanly.
  holdStandardDescriptors();
  AppContext ctx;
  SignalStop signals(name, [&ctx](int sig) {
    if (ctx.log) ctx.log->warn("signal {} received: stopping the search, the result will be partial", sig);
    ctx.stop.request(StopReason::Interrupted);
  });
  ctx.signals = &signals;
  // A process no launcher started is one rank on its own: it starts MPI only for what needs it
  // (checkpoints; bench/results/startup.md). Under a launcher MPI starts first, as every rank must.
  std::optional<comm::Runtime> mpi;
  const auto startMpi = [&]() {
    const auto t0 = AppContext::Startup::Clock::now();
    try {
      SignalStop::Deferred whileMpiStarts;
      mpi.emplace(argc, argv);
      // Before the signals held back during MPI_Init arrive: the ranks agree on a set-up signal.
      if (mpi->size() > 1) signals.deferSetUp();
    } catch (const std::exception& e) {
      std::cerr << name << ": error: " << e.what() << "\n";
      return false;
    }
    ctx.startup.mpiSeconds = std::chrono::duration<double>(AppContext::Startup::Clock::now() - t0).count();
    return true;
  };
  if (comm::startedByLauncher() && !startMpi()) return kFailure;
  ctx.name = name;
  ctx.rank = mpi ? mpi->rank() : 0;
  ctx.size = mpi ? mpi->size() : 1;
  ctx.argv.assign(argv, argv + argc);
  ctx.policies = &policies;
  ctx.log = makeLogger(name, ctx.rank);
  // Only rank 0 prints results: the other ranks' stdout is closed.
  if (ctx.rank != 0) std::cout.setstate(std::ios::badbit);
  CLI::App cli(description, name);
  addCommonOptions(cli, ctx.opts, policies);
  TestHooks testHooks;
  addTestHookOptions(cli, testHooks);
  const auto common = cli.get_options();
  try {
    setup(cli);
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return ctx.rank == 0 ? cli.exit(e) : 0;
  } catch (const CLI::CallForAllHelp& e) {
    return ctx.rank == 0 ? cli.exit(e) : 0;
  } catch (const CLI::Success&) {
    return kSuccess;  // --list-policies printed what was asked (help derives from Success too: above)
  } catch (const CLI::ParseError& e) {
    // Every rank parses the same command line: one message, from rank 0.
    if (ctx.rank == 0) std::cerr << name << ": error: " << excerpt(e.what(), 400) << "\n(run with --help for the options)\n";
    return kBadInput;
  }
  settleDefaults(cli, ctx.opts);
  if (testHooks.any()) ctx.test = &testHooks;
  if (!ctx.opts.checkpointDir.empty()) signals.checkpointing();
  // Asking for --progress is asking to see info lines, unless --log-level says otherwise.
  const bool progressShown = ctx.opts.progressSeconds > 0 && cli.count("--log-level") == 0;
  ctx.log->set_level(progressShown ? spdlog::level::info : ctx.opts.logLevel);
  if (!mpi && (!ctx.opts.checkpointDir.empty() || !ctx.opts.resumeDir.empty()) && !startMpi()) return kFailure;
  if (mpi) ctx.log->debug("MPI thread level {}, {} rank(s)", comm::threadLevelName(mpi->threadLevel()), ctx.size);
  else ctx.log->debug("one rank, no launcher: MPI not started");
  try {
    validate(ctx.opts);
    // Every output is checked before any input is read or searched: a finished search is never
    // marked failed for a path. Rank 0 writes them; a failure there reaches the other ranks
    // through the collective set-up check (they wait for it in runSearch).
    const auto own = appOptions(cli, common);
    if (ctx.rank == 0) checkOutputs(ctx.opts, inputFiles(own));
    // --trace: one rank, checked before any input is read or searched.
    if (!ctx.opts.traceFile.empty()) ctx.trace = std::make_shared<TraceRecorder>(ctx);
    if (!ctx.opts.checkpointDir.empty() || !ctx.opts.resumeDir.empty()) ctx.identity = searchIdentity(name, own);
    ctx.startup.options = AppContext::Startup::Clock::now();
    const int code = body(ctx);
    signals.finishing();
    // An app that ended without finish(): the trace of its last search, without its answer.
    if (ctx.trace && !ctx.trace->written() && ctx.lastRun.ran)
      ctx.trace->write(ctx, nullptr, ctx.lastRun.stats, ctx.lastRun.seconds, ctx.lastRun.stop);
    // --stats is never silently dropped: the common part of the document, if the app wrote none.
    if (!ctx.statsWritten && !ctx.opts.statsFile.empty()) {
      nlohmann::json doc = ctx.lastRun.ran
                               ? runJson(ctx, ctx.lastRun.stats, ctx.lastRun.seconds, ctx.lastRun.stop)
                               : nlohmann::json{{"command", ctx.argv}, {"searches", 0}};
      doc["app"] = name;
      writeStats(ctx, doc);
    }
    if (code == kPartial) print(ctx, "PARTIAL RESULT: the search was interrupted; the numbers above are what was found so far\n");
    if (!ctx.checkpointNote.empty()) print(ctx, ctx.checkpointNote + "\n");
    return settleOutputs(ctx, name, code);
  } catch (const InterruptedAtSetUp&) {
    // Every rank is here, nothing was searched or saved: the folder keeps what it had. The lock
    // goes first, as at the end of a run, so that no rank's exit 3 lets mpirun return before it.
    signals.finishing();
    if (ctx.rank == 0) signals.reportSetUpStop();
    ctx.checkpointLock.reset();
    comm::anyRank(ctx.world, false);
    return kPartial;
  } catch (const SetupFailedElsewhere&) {
    return kBadInput;  // rank 0 printed the failing rank's message
  } catch (const FailedElsewhere&) {
    return kFailure;  // the search failed on another rank; rank 0 prints that rank's message
  } catch (const SearchFailed& e) {
    // Every rank has stopped and agreed (distributed::Launch); one message, from rank 0.
    if (ctx.rank == 0) std::cerr << name << ": error: " << e.what() << "\n";
    return kFailure;
  } catch (const InputError& e) {
    return failSetup(ctx, name, e.what(), kBadInput);
  } catch (const std::exception& e) {
    return failSetup(ctx, name, e.what(), kFailure);
  }
}

}  // namespace jackdaw::app
