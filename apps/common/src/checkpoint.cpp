#include "jackdaw/app/checkpoint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

#include "jackdaw/app/feature_states.hpp"
#include "jackdaw/app/report.hpp"
#include "jackdaw/app/safe_file.hpp"
#include "jackdaw/comm/collectives.hpp"
#include "jackdaw/comm/failure.hpp"
#include "jackdaw/core/errors.hpp"

#ifndef JACKDAW_VERSION
#define JACKDAW_VERSION "unknown"
#endif

namespace jackdaw::app {

namespace fs = std::filesystem;

namespace {

std::string setName(std::uint64_t seq) {
  char b[32];
  std::snprintf(b, sizeof b, "set-%06llu", static_cast<unsigned long long>(seq));
  return b;
}

// A directory's entries (a new file, a renamed link) reach the disk only when it is fsync'd too.
std::optional<std::string> syncDir(const fs::path& d) {
  const int fd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return "cannot open folder '" + d.string() + "': " + std::strerror(errno);
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) return "cannot flush folder '" + d.string() + "' to disk";
  return std::nullopt;
}

// The sequence number of the set DIR/current names, or 0 without one.
std::uint64_t currentSequence(const fs::path& dir) {
  std::error_code ec;
  const fs::path target = fs::read_symlink(dir / "current", ec);
  if (ec) return 0;
  const std::string name = target.filename().string();
  if (name.rfind("set-", 0) != 0) return 0;
  try {
    return std::stoull(name.substr(4));
  } catch (const std::exception&) {
    return 0;
  }
}

// The identity of the set DIR/current names, or why it cannot be known (nullopt: no set).
struct CurrentSet {
  std::optional<nlohmann::json> identity;
  std::string unreadable;  // non-empty: DIR/current exists but its set cannot be read
};
CurrentSet currentSet(const fs::path& d) {
  CurrentSet out;
  std::error_code ec;
  const fs::path link = d / "current";
  if (!fs::is_symlink(link, ec)) {
    if (fs::exists(link, ec)) out.unreadable = "'" + link.string() + "' is not a link to a checkpoint set";
    return out;
  }
  const fs::path target = fs::read_symlink(link, ec);
  const fs::path mpath = d / target.filename() / "manifest.json";
  const ReadResult text = ec ? ReadResult{{}, "no set"} : readRegularFile(mpath, kManifestLimit, "any manifest");
  if (!text.error.empty()) {
    out.unreadable = "'" + mpath.string() + "' cannot be read";
    return out;
  }
  try {
    const auto m = nlohmann::json::parse(reinterpret_cast<const char*>(text.bytes.data()),
                                         reinterpret_cast<const char*>(text.bytes.data()) + text.bytes.size());
    if (!m.is_object() || !m.contains("identity") || !m["identity"].is_object()) throw std::runtime_error("no identity");
    out.identity = m["identity"];
  } catch (const std::exception&) {
    out.unreadable = "'" + mpath.string() + "' is damaged (no identity can be read from it)";
  }
  return out;
}

}  // namespace

std::string checkpointRankFile(int rank) {
  char b[32];
  std::snprintf(b, sizeof b, "rank-%05d.bin", rank);
  return b;
}

std::unique_ptr<CheckpointLock> claimCheckpointDir(const std::string& dir, const nlohmann::json& identity,
                                                   const std::string& app, bool overwrite, bool resumingIt,
                                                   ClaimNotes& notes) {
  const fs::path d(dir);
  auto lock = takeCheckpointLock(dir, app, notes);
  // A set another user left (or planted) in a shared folder is not this job's to replace.
  struct stat st {};
  if (::lstat((d / "current").c_str(), &st) == 0 && st.st_uid != ::geteuid())
    throw InputError("--checkpoint: '" + (d / "current").string() + "' belongs to another user (uid " +
                     std::to_string(st.st_uid) + "): this folder holds someone else's checkpoint; choose a folder of your own");

  // The folder's current set must be this search's, unless the user lets it go.
  const CurrentSet cur = currentSet(d);
  std::optional<std::string> other;
  if (!cur.unreadable.empty()) other = "holds a checkpoint that cannot be identified (" + cur.unreadable + ")";
  else if (cur.identity)
    if (const auto why = identityDifference(identity, *cur.identity)) other = "holds the checkpoint of another search (" + *why + ")";
  if (other) {
    if (!overwrite)
      throw InputError("--checkpoint: folder '" + dir + "' " + *other +
                       "; this run would replace it at its first save. Continue that search with --resume '" + dir +
                       "' and its own options, choose another folder, or pass --checkpoint-overwrite to replace it");
    notes.warnings.push_back("--checkpoint-overwrite: folder '" + dir + "' " + *other +
                             "; this run replaces it at its first save");
  } else if (cur.identity && !resumingIt) {
    notes.warnings.push_back("--checkpoint: folder '" + dir +
                             "' holds a checkpoint of this same search; this run starts afresh and replaces it at its "
                             "first save (--resume '" + dir + "' would continue it)");
  }
  return lock;
}

void prepareCheckpointDir(const std::string& dir) {
  std::error_code ec;
  const fs::path d(dir);
  if (fs::exists(d, ec) && !fs::is_directory(d, ec))
    throw InputError("--checkpoint '" + dir + "' is not a folder");
  fs::create_directories(d, ec);
  if (ec) throw InputError("--checkpoint: cannot create folder '" + dir + "': " + ec.message());
  if (::access(d.c_str(), W_OK | X_OK) != 0) throw InputError("--checkpoint: folder '" + dir + "' is not writable");
  // In a folder every user may write and that is not sticky, anyone could replace the sets and the
  // lock between two looks at them (a sticky folder such as /tmp lets only the owner of a file
  // remove or rename it).
  struct stat st {};
  if (::stat(d.c_str(), &st) == 0 && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
    throw InputError("--checkpoint: folder '" + dir + "' can be written by every user and is not sticky: anyone could "
                     "replace its files; use a folder of your own (or set its sticky bit, chmod +t)");
}

nlohmann::json writeCheckpoint(const AppContext& ctx, const std::string& dir, std::span<const std::byte> mine,
                               const LegSummary& leg, const nlohmann::json& previous, const CheckpointLock* lock) {
  const fs::path d(dir);
  // 1. Rank 0 makes the new set's folder (removing the remains of a write that crashed), once it
  // knows the folder is still this job's.
  std::uint64_t seq = 0;
  std::optional<std::string> error;
  if (ctx.rank == 0 && lock) {
    if (const auto lost = lock->check()) error = "checkpoint: not written, the folder '" + dir + "' is no longer this job's: " + *lost;
  }
  if (ctx.rank == 0 && !error) {
    seq = currentSequence(d) + 1;
    std::error_code ec;
    fs::remove_all(d / setName(seq), ec);
    if (!fs::create_directory(d / setName(seq), ec))
      error = "checkpoint: cannot create '" + (d / setName(seq)).string() + "': " +
              (ec ? ec.message() : std::string("it exists already (is another job writing this folder?)"));
  }
  if (!comm::collectiveCheck(ctx.world, error)) throw FailedElsewhere();
  seq = comm::broadcastFromRoot(ctx.world, seq);
  const fs::path set = d / setName(seq);

  // 2. Every rank writes its record, durably; rank 0 gathers the sizes and checksums.
  error = writeNewFile(set / checkpointRankFile(ctx.rank), mine);
  if (!comm::collectiveCheck(ctx.world, error)) throw FailedElsewhere();
  nlohmann::json entry = {{"name", checkpointRankFile(ctx.rank)},
                          {"bytes", static_cast<std::uint64_t>(mine.size())},
                          {"sha1", sha1Hex(mine)},
                          {"tasks", leg.tasks},
                          {"nodes", leg.nodes}};
  const std::string text = entry.dump();
  const auto blobs = comm::gatherBlobs(ctx.world, std::as_bytes(std::span(text.data(), text.size())));

  // 3. Rank 0 writes the manifest, then swaps the set in and removes the one it replaces.
  nlohmann::json manifest;
  if (ctx.rank == 0) {
    nlohmann::json files = nlohmann::json::array();
    std::uint64_t tasks = 0;
    for (const auto& b : blobs) {
      files.push_back(nlohmann::json::parse(reinterpret_cast<const char*>(b.data()), reinterpret_cast<const char*>(b.data()) + b.size()));
      tasks += files.back()["tasks"].get<std::uint64_t>();
    }
    nlohmann::json legs = previous.is_object() ? previous.value("legs", nlohmann::json::array()) : nlohmann::json::array();
    legs.push_back({{"skeleton", leg.skeleton}, {"ranks", leg.ranks}, {"threads", leg.threads}, {"seconds", leg.seconds},
                    {"nodes_so_far", leg.nodesSoFar}, {"incumbent", leg.incumbent}, {"tasks", tasks},
                    {"written", utcTimestamp()}, {"job", std::getenv("SLURM_JOB_ID") ? std::getenv("SLURM_JOB_ID") : ""}});
    manifest = {{"format", kCheckpointFormatName},
                {"format_version", kCheckpointFormat},
                {"jackdaw_version", JACKDAW_VERSION},
                {"identity", ctx.features->checkpoint.identity},
                {"sequence", seq},
                {"written", utcTimestamp()},
                {"command", ctx.argv},
                {"ranks", ctx.size},
                {"nodes_so_far", leg.nodesSoFar},
                {"incumbent", leg.incumbent},
                {"seconds_so_far", leg.secondsSoFar},
                {"tasks", tasks},
                {"legs", legs},
                {"files", files}};
    const std::string mtext = manifest.dump(2) + "\n";
    error = writeNewFile(set / "manifest.json", std::as_bytes(std::span(mtext.data(), mtext.size())));
    if (!error) error = syncDir(set);
    if (!error) {
      std::error_code ec;
      const fs::path old = fs::read_symlink(d / "current", ec);
      fs::remove(d / "current.new", ec);
      fs::create_directory_symlink(setName(seq), d / "current.new", ec);
      if (!ec) fs::rename(d / "current.new", d / "current", ec);
      if (ec) error = "checkpoint: cannot point '" + (d / "current").string() + "' at the new set: " + ec.message();
      if (!error) error = syncDir(d);
      if (!error && !old.empty() && old.filename() != setName(seq)) fs::remove_all(d / old.filename(), ec);
    }
  }
  if (!comm::collectiveCheck(ctx.world, error)) throw FailedElsewhere();
  return manifest;
}

}  // namespace jackdaw::app
