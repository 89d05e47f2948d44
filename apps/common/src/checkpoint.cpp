#include "jackdaw/app/checkpoint.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <algorithm>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>

#include "jackdaw/app/report.hpp"
#include "jackdaw/app/signals.hpp"
#include "jackdaw/comm/collectives.hpp"
#include "jackdaw/comm/failure.hpp"
#include "jackdaw/core/errors.hpp"

#ifndef JACKDAW_VERSION
#define JACKDAW_VERSION "unknown"
#endif

namespace jackdaw::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "jackdaw-checkpoint";

std::string setName(std::uint64_t seq) {
  char b[32];
  std::snprintf(b, sizeof b, "set-%06llu", static_cast<unsigned long long>(seq));
  return b;
}
std::string rankFileName(int rank) {
  char b[32];
  std::snprintf(b, sizeof b, "rank-%05d.bin", rank);
  return b;
}

std::optional<std::vector<std::byte>> readWhole(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  std::vector<std::byte> out(chars.size());
  std::memcpy(out.data(), chars.data(), chars.size());
  return out;
}

// Writes the whole file and fsyncs it; an error message, or nullopt.
std::optional<std::string> writeDurably(const fs::path& p, std::span<const std::byte> bytes) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot create '" + p.string() + "': " + std::strerror(errno);
  const auto* at = reinterpret_cast<const char*>(bytes.data());
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, at, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      return "cannot write '" + p.string() + "': " + why;
    }
    at += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) return "cannot flush '" + p.string() + "' to disk: " + std::strerror(errno);
  return std::nullopt;
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

// An option whose value named a file in both identities: compared by the file's SHA-1 alone.
bool comparedByFile(const nlohmann::json& here, const nlohmann::json& there, const std::string& option) {
  const nlohmann::json hf = here.value("files", nlohmann::json::object());
  const nlohmann::json tf = there.value("files", nlohmann::json::object());
  return hf.is_object() && tf.is_object() && hf.contains(option) && tf.contains(option);
}

// "option -g is 41 here, 40 in the checkpoint" for the first difference between two identities,
// or nullopt if they are one search.
std::optional<std::string> differenceOf(const nlohmann::json& here, const nlohmann::json& there) {
  if (!there.is_object()) return "the checkpoint's identity is malformed";
  if (here.value("app", "") != there.value("app", ""))
    return "it was written by '" + there.value("app", "?") + "', this is '" + here.value("app", "?") + "'";
  const nlohmann::json hf = here.value("files", nlohmann::json::object());
  const nlohmann::json tf = there.value("files", nlohmann::json::object());
  if (!tf.is_object()) return "the checkpoint's identity is malformed";
  for (const auto& [k, v] : hf.items()) {
    if (!tf.contains(k)) return "option " + k + " names a file here, not in the checkpoint";
    if (tf.at(k) != v)
      return "the file of option " + k + " has other contents (SHA-1 " + v.get<std::string>() + " here, " +
             (tf.at(k).is_string() ? tf.at(k).get<std::string>() : tf.at(k).dump()) + " in the checkpoint)";
  }
  const auto& ho = here.at("options");
  const nlohmann::json to = there.value("options", nlohmann::json::object());
  if (!to.is_object()) return "the checkpoint's identity is malformed";
  for (const auto& [k, v] : ho.items()) {
    if (!to.contains(k)) return "option " + k + " is not in the checkpoint";
    if (comparedByFile(here, there, k)) continue;  // the same contents under another path
    if (to.at(k) != v) return "option " + k + " is " + v.dump() + " here, " + to.at(k).dump() + " in the checkpoint";
  }
  for (const auto& [k, v] : to.items())
    if (!ho.contains(k)) return "the checkpoint has option " + k + ", this app does not";
  for (const auto& [k, v] : tf.items())
    if (!hf.contains(k)) return "option " + k + " named a file in the checkpoint, it does not here";
  return std::nullopt;
}

std::optional<std::string> difference(const nlohmann::json& here, const nlohmann::json& there) {
  try {
    return differenceOf(here, there);
  } catch (const nlohmann::json::exception&) {
    return "the checkpoint's identity is malformed";
  }
}

std::string hostName() {
  char b[256] = {};
  if (::gethostname(b, sizeof b - 1) != 0) return "unknown-host";
  return b;
}

// A process on this host: alive unless kill(pid, 0) says there is no such process, or it is a
// zombie (it has exited, and its parent has not reaped it yet: mpirun can return before the last
// ranks it killed are reaped, and a job started at once must not take them for a live job).
bool processAlive(long long pid) {
  if (pid <= 0 || pid > std::numeric_limits<pid_t>::max()) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;  // no /proc: kill(2)'s answer stands
  // "PID (COMM) STATE ...": COMM may hold spaces and parentheses, the state follows the last ')'.
  const auto close = line.rfind(')');
  if (close == std::string::npos || close + 2 >= line.size()) return true;
  const char state = line[close + 2];
  return state != 'Z' && state != 'X';
}

std::optional<std::string> readText(const fs::path& p) {
  const auto bytes = readWhole(p);
  if (!bytes) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size());
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
  const auto text = ec ? std::nullopt : readText(mpath);
  if (!text) {
    out.unreadable = "'" + mpath.string() + "' cannot be read";
    return out;
  }
  try {
    const auto m = nlohmann::json::parse(*text);
    if (!m.is_object() || !m.contains("identity") || !m["identity"].is_object()) throw std::runtime_error("no identity");
    out.identity = m["identity"];
  } catch (const std::exception&) {
    out.unreadable = "'" + mpath.string() + "' is damaged (no identity can be read from it)";
  }
  return out;
}

}  // namespace

CheckpointLock::CheckpointLock(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  removeAtSetUpExit(path_);  // a signal before the search ends the process at once, without this destructor
}

CheckpointLock::~CheckpointLock() {
  removeAtSetUpExit("");
  // Only this process's lock: never one another job wrote after taking this one over.
  if (!check()) ::unlink(path_.c_str());
}

std::optional<std::string> CheckpointLock::check() const {
  const auto now = readText(path_);
  if (!now) return "the lock file '" + path_ + "' is gone";
  if (*now != text_) return "the lock file '" + path_ + "' now names another job: " + *now;
  return std::nullopt;
}

std::unique_ptr<CheckpointLock> claimCheckpointDir(const std::string& dir, const nlohmann::json& identity,
                                                   const std::string& app, bool overwrite, bool resumingIt,
                                                   ClaimNotes& notes) {
  const fs::path d(dir);
  const fs::path lockPath = d / "lock";
  const std::string host = hostName();
  const long long pid = ::getpid();
  const std::string text = nlohmann::json{{"host", host}, {"pid", pid}, {"app", app}, {"since", utcTimestamp()}}.dump() + "\n";
  // The whole lock is written under a name of this process's own, then linked into place: link(2)
  // fails if the lock exists, and a lock is never seen half written.
  const fs::path mine = d / ("lock." + host + "." + std::to_string(pid));
  if (const auto e = writeDurably(mine, std::as_bytes(std::span(text.data(), text.size()))))
    throw InputError("--checkpoint: folder '" + dir + "' is not writable: " + *e);
  std::unique_ptr<CheckpointLock> lock;
  std::error_code ec;
  for (int attempt = 0; attempt < 4 && !lock; ++attempt) {
    if (::link(mine.c_str(), lockPath.c_str()) == 0) {
      lock = std::make_unique<CheckpointLock>(lockPath.string(), text);
      break;
    }
    if (errno != EEXIST) {
      const std::string why = std::strerror(errno);
      fs::remove(mine, ec);
      throw InputError("--checkpoint: cannot create the lock file '" + lockPath.string() + "': " + why);
    }
    const auto held = readText(lockPath);
    if (!held) continue;  // removed meanwhile: try again
    std::string owner = "an unreadable lock file";
    std::string ownerHost;
    long long ownerPid = 0;
    try {
      const auto j = nlohmann::json::parse(*held);
      ownerHost = j.at("host").get<std::string>();
      ownerPid = j.at("pid").get<long long>();
      owner = "host " + ownerHost + ", process " + std::to_string(ownerPid) +
              (j.contains("app") && j["app"].is_string() ? ", " + j["app"].get<std::string>() : "") +
              (j.contains("since") && j["since"].is_string() ? ", since " + j["since"].get<std::string>() : "");
    } catch (const std::exception&) {
    }
    // This process claims once per run, so a lock naming its own PID was left by an earlier
    // process that had the same PID (containers reuse them): stale too.
    if (ownerHost != host || ownerPid <= 0 || (ownerPid != pid && processAlive(ownerPid))) {
      fs::remove(mine, ec);
      throw InputError("--checkpoint: folder '" + dir + "' is in use by another job (" + owner + "; lock file '" +
                       lockPath.string() + "'). Two jobs cannot write one folder: choose another folder, or wait for that job to end. " +
                       (ownerHost == host ? "If that process is not a Jackdaw job writing this folder"
                                          : "If that job is no longer running (its host cannot be checked from here)") +
                       ", remove '" + lockPath.string() + "' and run again");
    }
    // Stale: its process is gone. Move it aside under a name of our own (of two jobs doing this at
    // once, only one rename finds it), make sure it is the stale one, then try to link ours again.
    const fs::path aside = d / ("lock.stale." + host + "." + std::to_string(pid));
    if (::rename(lockPath.c_str(), aside.c_str()) != 0) continue;
    const auto moved = readText(aside);
    if (moved && *moved != *held) {
      // Another job's fresh lock went aside instead: put it back where it was.
      if (::link(aside.c_str(), lockPath.c_str()) != 0) {
        fs::remove(aside, ec);
        fs::remove(mine, ec);
        throw InputError("--checkpoint: folder '" + dir + "': another job is taking the lock at the same moment; run again");
      }
      fs::remove(aside, ec);
      continue;
    }
    fs::remove(aside, ec);
    notes.warnings.push_back("--checkpoint: took over the stale lock of '" + dir + "' (" + owner +
                             ": that process is gone; a job that ended without removing its lock)");
  }
  fs::remove(mine, ec);
  if (!lock) throw InputError("--checkpoint: could not take the lock file '" + lockPath.string() + "'; run again");

  // The folder's current set must be this search's, unless the user lets it go.
  const CurrentSet cur = currentSet(d);
  std::optional<std::string> other;
  if (!cur.unreadable.empty()) other = "holds a checkpoint that cannot be identified (" + cur.unreadable + ")";
  else if (cur.identity)
    if (const auto why = difference(identity, *cur.identity)) other = "holds the checkpoint of another search (" + *why + ")";
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

std::string sha1Hex(std::span<const std::byte> bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha1(), nullptr) != 1)
    throw std::runtime_error("SHA-1 failed (OpenSSL)");
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

bool sameSearch(const nlohmann::json& here, const nlohmann::json& there) { return !difference(here, there); }

nlohmann::json searchIdentity(const std::string& app, const std::vector<std::pair<std::string, std::string>>& appOptions) {
  nlohmann::json id = {{"app", app}, {"options", nlohmann::json::object()}, {"files", nlohmann::json::object()}};
  for (const auto& [name, value] : appOptions) {
    id["options"][name] = value;
    std::error_code ec;
    if (!value.empty() && fs::is_regular_file(value, ec)) {
      const auto bytes = readWhole(value);
      if (!bytes) throw InputError("cannot read '" + value + "' (option " + name + ")");
      id["files"][name] = sha1Hex(*bytes);
    }
  }
  return id;
}

void prepareCheckpointDir(const std::string& dir) {
  std::error_code ec;
  const fs::path d(dir);
  if (fs::exists(d, ec) && !fs::is_directory(d, ec))
    throw InputError("--checkpoint '" + dir + "' is not a folder");
  fs::create_directories(d, ec);
  if (ec) throw InputError("--checkpoint: cannot create folder '" + dir + "': " + ec.message());
  if (::access(d.c_str(), W_OK | X_OK) != 0) throw InputError("--checkpoint: folder '" + dir + "' is not writable");
}

LoadedCheckpoint readCheckpoint(const std::string& dir, const nlohmann::json& identity, int rank, int size) {
  const fs::path d(dir);
  std::error_code ec;
  if (!fs::is_directory(d, ec)) throw InputError("--resume: no checkpoint folder '" + dir + "'");
  const fs::path link = d / "current";
  if (!fs::is_symlink(link, ec))
    throw InputError("--resume: '" + dir + "' holds no checkpoint ('" + link.string() + "' is missing)");
  const fs::path target = fs::read_symlink(link, ec);
  const fs::path set = d / target.filename();
  if (ec || target.has_parent_path() || !fs::is_directory(set, ec))
    throw InputError("--resume: '" + link.string() + "' does not name a checkpoint set in '" + dir + "'");
  const fs::path mpath = set / "manifest.json";
  const std::string where = mpath.string();
  if (!fs::is_regular_file(mpath, ec)) throw InputError(where + ": missing (an incomplete checkpoint set)");
  const auto mbytes = readWhole(mpath);
  if (!mbytes) throw InputError(where + ": cannot be read");
  LoadedCheckpoint out;
  try {
    out.manifest = nlohmann::json::parse(reinterpret_cast<const char*>(mbytes->data()),
                                         reinterpret_cast<const char*>(mbytes->data()) + mbytes->size());
  } catch (const nlohmann::json::parse_error& e) {
    // Where, as line and column (the parser's own text may quote the file's raw bytes).
    const std::size_t at = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, mbytes->size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < at; ++i) {
      if ((*mbytes)[i] == std::byte{'\n'}) {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw InputError(where + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                     ": not valid JSON (a damaged manifest)");
  }
  const nlohmann::json& m = out.manifest;
  auto field = [&](const char* key) -> const nlohmann::json& {
    if (!m.is_object() || !m.contains(key)) throw InputError(where + ": field '" + std::string(key) + "' is missing");
    return m.at(key);
  };
  if (field("format") != kFormat) throw InputError(where + ": field 'format' is not \"" + std::string(kFormat) + "\"");
  const auto& version = field("format_version");
  if (!version.is_number_integer() || version.get<long long>() != kCheckpointFormat)
    throw InputError(where + ": field 'format_version' is " + version.dump() + ", this build reads " +
                     std::to_string(kCheckpointFormat));
  const auto& id = field("identity");
  if (!id.is_object() || !id.contains("options") || !id.contains("files") || !id["options"].is_object() ||
      !id["files"].is_object())
    throw InputError(where + ": field 'identity' is malformed");
  if (const auto why = difference(identity, id))
    throw InputError("--resume: the checkpoint in '" + dir + "' is for another search: " + *why);
  const auto& files = field("files");
  const auto& ranks = field("ranks");
  if (!ranks.is_number_unsigned() || !files.is_array() || files.size() != ranks.get<std::uint64_t>() || files.empty())
    throw InputError(where + ": fields 'ranks' and 'files' disagree");
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    const std::string at = where + ": files[" + std::to_string(i) + "]";
    if (!f.is_object() || !f.contains("name") || !f.contains("bytes") || !f.contains("sha1") || !f["bytes"].is_number_unsigned() ||
        !f["sha1"].is_string())
      throw InputError(at + " is malformed (needs name, bytes, sha1)");
    if (f["name"] != rankFileName(static_cast<int>(i))) throw InputError(at + ": field 'name' should be " + rankFileName(static_cast<int>(i)));
    if (static_cast<int>(i % static_cast<std::size_t>(size)) != rank) continue;
    const fs::path p = set / rankFileName(static_cast<int>(i));
    if (!fs::is_regular_file(p, ec)) throw InputError(p.string() + ": missing (an incomplete checkpoint set)");
    auto bytes = readWhole(p);
    if (!bytes) throw InputError(p.string() + ": cannot be read");
    const auto want = f["bytes"].get<std::uint64_t>();
    if (bytes->size() != want)
      throw InputError(p.string() + ": " + std::to_string(bytes->size()) + " bytes, the manifest says " + std::to_string(want) +
                       " (truncated or altered)");
    if (sha1Hex(*bytes) != f["sha1"].get<std::string>()) throw InputError(p.string() + ": contents altered (SHA-1 differs from the manifest)");
    out.records.push_back(std::move(*bytes));
  }
  return out;
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
  error = writeDurably(set / rankFileName(ctx.rank), mine);
  if (!comm::collectiveCheck(ctx.world, error)) throw FailedElsewhere();
  nlohmann::json entry = {{"name", rankFileName(ctx.rank)},
                          {"bytes", static_cast<std::uint64_t>(mine.size())},
                          {"sha1", sha1Hex(mine)},
                          {"tasks", leg.tasks}};
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
    manifest = {{"format", kFormat},
                {"format_version", kCheckpointFormat},
                {"jackdaw_version", JACKDAW_VERSION},
                {"identity", ctx.identity},
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
    error = writeDurably(set / "manifest.json", std::as_bytes(std::span(mtext.data(), mtext.size())));
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
