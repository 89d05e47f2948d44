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
#include "jackdaw/app/feature_states.hpp"
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
int settleOutputs(AppContext& ctx, int code) {
  if (ctx.rank == 0) {
    print(ctx, "");  // flushes
    errno = 0;
    if (std::fflush(stdout) != 0 && ctx.stdoutErrno == 0) ctx.stdoutErrno = errno != 0 ? errno : EIO;
    if (gStdoutClosed)
      ctx.undelivered.push_back("standard output is closed: the answer was not printed");
    else if (ctx.stdoutErrno != 0 || std::ferror(stdout))
      ctx.undelivered.push_back(std::string("standard output: the answer could not be written") +
                                (ctx.stdoutErrno != 0 ? " (" + std::string(std::strerror(ctx.stdoutErrno)) + ")" : ""));
    for (const auto& line : ctx.undelivered) std::cerr << ctx.name << ": error: " << line << "\n";
  }
  bool undelivered = !ctx.undelivered.empty();
  // --checkpoint's lock is released before any rank exits: mpirun ends a job as soon as one rank
  // exits non-zero (an interrupted search exits 3), and would otherwise return while rank 0
  // still holds the lock, so that a leg started right after found the folder in use.
  if (ctx.size > 1) {
    ctx.features->checkpoint.lock.reset();
    undelivered = comm::anyRank(ctx.world, undelivered);
  }
  return undelivered && code == kSuccess ? kUndelivered : code;
}

// One message for the whole job. A set-up error on some ranks reaches the others through the
// collective check in runSearch (they wait there); rank 0 prints the lowest failing rank's message.
int failSetup(AppContext& ctx, const std::string& message, int code) {
  if (ctx.size == 1) {
    std::cerr << ctx.name << ": error: " << message << "\n";
    return code;
  }
  if (!ctx.setupChecked) {
    comm::collectiveCheck(ctx.world, ctx.name + ": error: " + message);
    return code;
  }
  ctx.features->checkpoint.lock.reset();  // abortJob ends the process without destructors
  comm::abortJob(ctx.rank, ctx.name + ": error: " + message, code);  // mid-search: no agreement possible
}

// Starts MPI, the signals held back while MPI_Init runs; false (the message printed) if it failed.
bool startMpi(std::optional<comm::Runtime>& mpi, AppContext& ctx, SignalStop& signals, const std::string& name,
              int argc, char** argv) {
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
}

// This process's place in the job (one rank without MPI), its logger, and its stdout: only rank 0
// prints results, the other ranks' stdout is closed.
void joinJob(AppContext& ctx, const std::optional<comm::Runtime>& mpi, const std::string& name, int argc, char** argv,
             const comm::PolicyRegistry& policies) {
  ctx.name = name;
  ctx.rank = mpi ? mpi->rank() : 0;
  ctx.size = mpi ? mpi->size() : 1;
  ctx.argv.assign(argv, argv + argc);
  ctx.policies = &policies;
  ctx.log = makeLogger(name, ctx.rank);
  if (ctx.rank != 0) std::cout.setstate(std::ios::badbit);
}

// The command line: the frame's options, the hidden test hooks, then (setup) the app's own.
struct CommandLine {
  CLI::App cli;
  TestHooks testHooks;
  std::vector<CLI::Option*> common;  // the frame's options; the others are the app's own

  CommandLine(const std::string& description, const std::string& name, CommonOptions& opts,
              const comm::PolicyRegistry& policies)
      : cli(description, name) {
    addCommonOptions(cli, opts, policies);
    addTestHookOptions(cli, testHooks);
    common = cli.get_options();
  }
};

// Parses the command line into ctx.opts: nullopt to go on, or the exit code of a run that ends
// here (help, --list-policies, a parse error).
std::optional<int> parse(CommandLine& line, const AppContext& ctx, const std::function<void(CLI::App&)>& setup,
                         int argc, char** argv) {
  CLI::App& cli = line.cli;
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
    if (ctx.rank == 0) std::cerr << ctx.name << ": error: " << excerpt(e.what(), 400) << "\n(run with --help for the options)\n";
    return kBadInput;
  }
  return std::nullopt;
}

// What the parsed command line sets beyond ctx.opts: the defaults it settles, the test hooks,
// the signals' checkpoint mode and the log level.
void applyCommandLine(CommandLine& line, AppContext& ctx, SignalStop& signals) {
  settleDefaults(line.cli, ctx.opts);
  if (line.testHooks.any()) ctx.test = &line.testHooks;
  if (!ctx.opts.checkpointDir.empty()) signals.checkpointing();
  // Asking for --progress is asking to see info lines, unless --log-level says otherwise.
  const bool progressShown = ctx.opts.progressSeconds > 0 && line.cli.count("--log-level") == 0;
  ctx.log->set_level(progressShown ? spdlog::level::info : ctx.opts.logLevel);
}

// Before the app's body: the options checked, and every output, --trace's recorder made, the
// search's identity taken for --checkpoint / --resume.
void prepareRun(CommandLine& line, AppContext& ctx) {
  validate(ctx.opts);
  // Every output is checked before any input is read or searched: a finished search is never
  // marked failed for a path. Rank 0 writes them; a failure there reaches the other ranks
  // through the collective set-up check (they wait for it in runSearch).
  const auto own = appOptions(line.cli, line.common);
  if (ctx.rank == 0) checkOutputs(ctx.opts, inputFiles(own));
  // --trace: one rank, checked before any input is read or searched.
  if (!ctx.opts.traceFile.empty()) ctx.features->trace.recorder = std::make_unique<TraceRecorder>(ctx);
  if (!ctx.opts.checkpointDir.empty() || !ctx.opts.resumeDir.empty())
    ctx.features->checkpoint.identity = searchIdentity(ctx.name, own);
  ctx.startup.options = AppContext::Startup::Clock::now();
}

// What an app that ended without finish() left unwritten: the trace of its last search, without
// its answer; and --stats, never silently dropped: the common part of the document.
void writeMissingOutputs(AppContext& ctx) {
  const StatsState& stats = ctx.features->stats;
  const auto& last = stats.lastRun;
  TraceRecorder* const trace = ctx.features->trace.recorder.get();
  if (trace && !trace->written() && last.ran) trace->write(ctx, nullptr, last.stats, last.seconds, last.stop);
  if (!stats.written && !ctx.opts.statsFile.empty()) {
    nlohmann::json doc = last.ran ? runJson(ctx, last.stats, last.seconds, last.stop)
                                  : nlohmann::json{{"command", ctx.argv}, {"searches", 0}};
    doc["app"] = ctx.name;
    writeStats(ctx, doc);
  }
}

// After the app's body returned `code`: its missing outputs, the PARTIAL and CHECKPOINT lines,
// then stdout and every output checked (settleOutputs). The exit code.
int deliver(AppContext& ctx, int code) {
  writeMissingOutputs(ctx);
  if (code == kPartial) print(ctx, "PARTIAL RESULT: the search was interrupted; the numbers above are what was found so far\n");
  const std::string& note = ctx.features->checkpoint.note;
  if (!note.empty()) print(ctx, note + "\n");
  return settleOutputs(ctx, code);
}

// The exit code for the exception being handled, after the message and agreement it needs; called
// from a catch block, it rethrows that exception to tell which it is.
int exitCodeFor(AppContext& ctx, SignalStop& signals) {
  try {
    throw;
  } catch (const InterruptedAtSetUp&) {
    // Every rank is here, nothing was searched or saved: the folder keeps what it had. The lock
    // goes first, as at the end of a run, so that no rank's exit 3 lets mpirun return before it.
    signals.finishing();
    if (ctx.rank == 0) signals.reportSetUpStop();
    ctx.features->checkpoint.lock.reset();
    comm::anyRank(ctx.world, false);
    return kPartial;
  } catch (const SetupFailedElsewhere&) {
    return kBadInput;  // rank 0 printed the failing rank's message
  } catch (const FailedElsewhere&) {
    return kFailure;  // the search failed on another rank; rank 0 prints that rank's message
  } catch (const SearchFailed& e) {
    // Every rank has stopped and agreed (distributed::Launch); one message, from rank 0.
    if (ctx.rank == 0) std::cerr << ctx.name << ": error: " << e.what() << "\n";
    return kFailure;
  } catch (const InputError& e) {
    return failSetup(ctx, e.what(), kBadInput);
  } catch (const std::exception& e) {
    return failSetup(ctx, e.what(), kFailure);
  }
}

// The run once the command line is read: set-up, the app's body, its outputs; every error
// becomes one message and an exit code (exitCodeFor).
int runBody(CommandLine& line, AppContext& ctx, SignalStop& signals, const std::function<int(AppContext&)>& body) {
  try {
    prepareRun(line, ctx);
    const int code = body(ctx);
    signals.finishing();
    return deliver(ctx, code);
  } catch (const std::exception&) {
    return exitCodeFor(ctx, signals);
  }
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
  if (comm::startedByLauncher() && !startMpi(mpi, ctx, signals, name, argc, argv)) return kFailure;
  joinJob(ctx, mpi, name, argc, argv, policies);
  CommandLine line(description, name, ctx.opts, policies);
  if (const auto code = parse(line, ctx, setup, argc, argv)) return *code;
  applyCommandLine(line, ctx, signals);
  const bool checkpoints = !ctx.opts.checkpointDir.empty() || !ctx.opts.resumeDir.empty();
  if (!mpi && checkpoints && !startMpi(mpi, ctx, signals, name, argc, argv)) return kFailure;
  if (mpi) ctx.log->debug("MPI thread level {}, {} rank(s)", comm::threadLevelName(mpi->threadLevel()), ctx.size);
  else ctx.log->debug("one rank, no launcher: MPI not started");
  return runBody(line, ctx, signals, body);
}

}  // namespace jackdaw::app
