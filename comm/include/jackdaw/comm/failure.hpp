// Failure handling for a multi-rank job: never a hang, always one clear message.
//
// (a) Set-up errors (every rank parses the input, validates flags, …): run the set-up on every
//     rank, then one collective check. If any rank failed, rank 0 prints the message of the
//     lowest failing rank once, as "rank r: message", and every rank gets false (exit code 2).
//
//       if (!checkSetup(MPI_COMM_WORLD, [&] { space = readInstance(file); })) return 2;
//
// (b) Errors mid-search, when other ranks cannot be asked to agree: abortJob prints
//     "rank r: message" on stderr and calls MPI_Abort, which kills every rank with that code (and
//     ends this rank by itself if MPI_Abort does not, kAbortGraceSeconds later).
#pragma once

#include <mpi.h>

#include <exception>
#include <functional>
#include <optional>
#include <string>

namespace jackdaw::comm {

// Collective over comm. error: this rank's message, or nullopt. True when no rank failed.
bool collectiveCheck(MPI_Comm comm, const std::optional<std::string>& error);

// Runs setup, catching any exception as this rank's error, then collectiveCheck.
bool checkSetup(MPI_Comm comm, const std::function<void()>& setup);

// If MPI_Abort has not ended this process after kAbortGraceSeconds (a launcher waiting for a host
// it cannot reach), the rank exits by itself with the same code.
[[noreturn]] void abortJob(int rank, const std::string& message, int code = 1);
inline constexpr int kAbortGraceSeconds = 10;

}  // namespace jackdaw::comm
