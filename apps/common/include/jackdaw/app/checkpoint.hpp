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
//   DIR/lock                                   the job writing DIR: {"host", "pid", ...}
//
// A folder belongs to one search: a run refuses a folder holding another search's set (unless
// --checkpoint-overwrite) or locked by another live job; see claimCheckpointDir.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jackdaw/app/main.hpp"

namespace jackdaw::app {

inline constexpr int kCheckpointFormat = 1;

// What makes two runs the same search: the app, its own options (not the common ones: skeleton,
// ranks, workers and policy may change from one leg to the next) and the SHA-1 of every file an
// option names (the instance). `appOptions` are (option name, value) pairs.
nlohmann::json searchIdentity(const std::string& app, const std::vector<std::pair<std::string, std::string>>& appOptions);

// Whether two identities are one search: the same app and option values, except that an option
// naming a file compares by the file's SHA-1, not by the path as typed (./g.clq, g.clq and
// /abs/g.clq are one file).
bool sameSearch(const nlohmann::json& here, const nlohmann::json& there);

// --checkpoint DIR, at set-up: creates DIR if needed; an InputError if it cannot hold checkpoints.
void prepareCheckpointDir(const std::string& dir);

// DIR/lock, held by rank 0 of the job writing DIR: created atomically (a whole file linked into
// place, so it is never seen half written) and removed when destroyed, if it still names this
// process, or by a signal that ends the process before the search (removeAtSetUpExit).
class CheckpointLock {
 public:
  CheckpointLock(std::string path, std::string text);
  ~CheckpointLock();
  CheckpointLock(const CheckpointLock&) = delete;
  CheckpointLock& operator=(const CheckpointLock&) = delete;
  const std::string& path() const { return path_; }
  // The lock file still names this process (nullopt), or what happened to it.
  std::optional<std::string> check() const;

 private:
  std::string path_;
  std::string text_;  // what this process wrote
};

struct ClaimNotes {
  std::vector<std::string> warnings;  // a stale lock taken over, a set replaced (rank 0 logs them)
};

// --checkpoint DIR at set-up, on rank 0 only (after prepareCheckpointDir): takes DIR/lock and checks
// that DIR holds no other search's checkpoint. InputError (nothing taken) if another live job
// holds the lock (or a job on another host: its process cannot be checked from here), or if
// DIR/current is a set of another search (unless `overwrite`) or cannot be read. A lock whose
// process is gone (same host, PID not alive) is taken over, with a warning.
std::unique_ptr<CheckpointLock> claimCheckpointDir(const std::string& dir, const nlohmann::json& identity,
                                                   const std::string& app, bool overwrite, bool resumingIt,
                                                   ClaimNotes& notes);

struct LoadedCheckpoint {
  nlohmann::json manifest;
  std::vector<std::vector<std::byte>> records;  // the saved records this rank continues
};

// DIR's current set, checked for a run of `identity` as rank `rank` of `size`. Anything wrong (no
// set, another search, an unreadable manifest, a missing, short or altered file) is an
// InputError naming the file and the field or the fault.
LoadedCheckpoint readCheckpoint(const std::string& dir, const nlohmann::json& identity, int rank, int size);

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
