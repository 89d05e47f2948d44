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
#pragma once

#include <cstddef>
#include <cstdint>
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

// --checkpoint DIR, at set-up: creates DIR if needed; an InputError if it cannot hold checkpoints.
void prepareCheckpointDir(const std::string& dir);

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
};

// Collective over ctx.world: every rank writes its record into a new set, rank 0 writes the
// manifest (`previous`, if resumed, gives the history) and swaps the set in. Returns the manifest
// on rank 0. If any rank fails, rank 0 prints that rank's message and every rank throws
// FailedElsewhere.
nlohmann::json writeCheckpoint(const AppContext& ctx, const std::string& dir, std::span<const std::byte> mine,
                               const LegSummary& leg, const nlohmann::json& previous);

// SHA-1 of bytes, as 40 hex digits.
std::string sha1Hex(std::span<const std::byte> bytes);

}  // namespace jackdaw::app
