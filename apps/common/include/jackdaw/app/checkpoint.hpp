// Checkpoint folders: --checkpoint DIR saves an interrupted search, --resume DIR continues it.
//
//   DIR/current           -> set-000003        a symbolic link to the newest whole set
//   DIR/set-000003/manifest.json               what search, who wrote it, each file's size and SHA-1
//   DIR/set-000003/rank-00000.bin ...          one saved record per rank of the job that wrote it
//
// A new set is written and fsync'd beside the old one, then the link is replaced with rename(2),
// which is atomic: a crash at any moment leaves DIR/current naming a whole set. The old set is
// removed only after the swap. A set written by P ranks resumes on any number of ranks: rank r
// continues the records r, r + size, r + 2 size, …
//
//   DIR/lock                                   the job writing DIR: flock(2) held, {"host", "pid", ...}
//
// A folder belongs to one search: a run refuses a folder holding another search's set (unless
// --checkpoint-overwrite) or locked by another live job; see claimCheckpointDir and
// checkpoint_lock.hpp. Every file is created new (O_EXCL, never through a link: safe_file.hpp), so
// another user of a shared folder cannot make a run write into a file of theirs or the run's own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/app/checkpoint_lock.hpp"
#include "jackdaw/app/context.hpp"

namespace jackdaw::app {

// What the checkpoint feature (CheckpointLegs, run.hpp) keeps across a run, in
// AppContext::features (feature_states.hpp).
struct CheckpointState {
  nlohmann::json identity;  // the search this command line asks for (checkpoints must match); set by runMain
  nlohmann::json section;   // rank 0: the checkpoint written or resumed (--stats "checkpoint")
  std::string note;         // rank 0: a line for stdout after the result
  std::unique_ptr<CheckpointLock> lock;  // rank 0: --checkpoint DIR's lock, held until the run ends
};

// 2: each file's entry in the manifest also holds its record's node count ("nodes"), checked on resume.
inline constexpr int kCheckpointFormat = 2;
inline constexpr const char* kCheckpointFormatName = "jackdaw-checkpoint";
// A manifest is a few hundred bytes per rank and per leg; one larger than this is not read.
inline constexpr std::uint64_t kManifestLimit = std::uint64_t{64} << 20;

// What makes two runs the same search: the app, its own options (not the common ones: skeleton,
// ranks, workers and policy may change from one leg to the next) and the SHA-1 of every file an
// option names (the instance). `appOptions` are (option name, value) pairs.
nlohmann::json searchIdentity(const std::string& app, const std::vector<std::pair<std::string, std::string>>& appOptions);

// Whether two identities are one search: the same app and option values, except that an option
// naming a file compares by the file's SHA-1, not by the path as typed (./g.clq, g.clq and
// /abs/g.clq are one file).
bool sameSearch(const nlohmann::json& here, const nlohmann::json& there);

// The first difference between two identities ("option -g is 41 here, 40 in the checkpoint"), or
// nullopt if they are one search.
std::optional<std::string> identityDifference(const nlohmann::json& here, const nlohmann::json& there);

// "rank-00003.bin": the record of rank 3 in a set.
std::string checkpointRankFile(int rank);

// --checkpoint DIR, at set-up: creates DIR if needed; an InputError if it cannot hold checkpoints
// (not a folder, not writable, or writable by every user without the sticky bit).
void prepareCheckpointDir(const std::string& dir);

// --checkpoint DIR at set-up, on rank 0 only (after prepareCheckpointDir): takes DIR/lock
// (checkpoint_lock.hpp) and checks that DIR holds no other search's checkpoint. InputError
// (nothing taken) if another job holds the lock, or if DIR/current belongs to another user, is a
// set of another search (unless `overwrite`) or cannot be read.
std::unique_ptr<CheckpointLock> claimCheckpointDir(const std::string& dir, const nlohmann::json& identity,
                                                   const std::string& app, bool overwrite, bool resumingIt,
                                                   ClaimNotes& notes);

// What the manifest says of one record, for the checks of its contents (run.hpp).
struct RecordFacts {
  std::string path;         // for messages
  std::uint64_t tasks = 0;  // the tasks it holds
  std::uint64_t nodes = 0;  // the nodes its share of the result counted
};

struct LoadedCheckpoint {
  nlohmann::json manifest;
  std::vector<std::vector<std::byte>> records;  // the saved records this rank continues
  std::vector<RecordFacts> facts;               // one per record
};

// DIR's current set, checked for a run of `identity` as rank `rank` of `size`. Anything wrong (no
// set, another search, an unreadable or inconsistent manifest, a missing, short, oversized or
// altered file) is an InputError naming the file and the field or the fault. Every size is checked
// against the manifest, the file and `memoryLimit` before anything is read.
LoadedCheckpoint readCheckpoint(const std::string& dir, const nlohmann::json& identity, int rank, int size,
                                std::uint64_t memoryLimit);

// What one leg adds to the manifest's history.
struct LegSummary {
  std::string skeleton;
  int ranks = 1;
  int threads = 0;
  double seconds = 0;            // this leg's
  double secondsSoFar = 0;       // every leg's
  std::uint64_t nodesSoFar = 0;  // every leg's nodes (rank 0's total)
  std::uint64_t tasks = 0;       // this rank's unexplored tasks
  nlohmann::json incumbent;      // the best objective so far (null: none), for the reader
  std::uint64_t nodes = 0;       // the nodes this rank's record's share counted (its files entry)
};

// Collective over ctx.world: every rank writes its record into a new set, rank 0 writes the
// manifest (`previous`, if resumed, gives the history) and swaps the set in. Returns the manifest
// on rank 0. If any rank fails, rank 0 prints that rank's message and every rank throws
// FailedElsewhere. With `lock` (rank 0), nothing is written unless DIR/lock still names this job.
nlohmann::json writeCheckpoint(const AppContext& ctx, const std::string& dir, std::span<const std::byte> mine,
                               const LegSummary& leg, const nlohmann::json& previous,
                               const CheckpointLock* lock = nullptr);

// SHA-1 of bytes, as 40 hex digits.
std::string sha1Hex(std::span<const std::byte> bytes);

}  // namespace jackdaw::app
