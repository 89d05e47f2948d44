#include "jackdaw/app/checkpoint_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "jackdaw/app/report.hpp"
#include "jackdaw/app/signals.hpp"
#include "jackdaw/core/errors.hpp"

namespace jackdaw::app {

namespace {

constexpr std::size_t kLockText = 4096;  // a lock's JSON is one short line; more is not read

std::string hostName() {
  char b[256] = {};
  if (::gethostname(b, sizeof b - 1) != 0) return "unknown-host";
  return b;
}

// The running kernel's identity: the same on every PID, mount and UTS namespace of this machine
// until it reboots. Empty where /proc does not say.
std::string bootId() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return id;
}

std::string readFrom(int fd) {
  std::string text(kLockText, '\0');
  const ssize_t n = ::pread(fd, text.data(), text.size(), 0);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return text;
}

// What another file now at `path` says (for a message), without following a link.
std::string readOther(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return "(unreadable)";
  struct stat st {};
  const std::string text = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? readFrom(fd) : "(not a regular file)";
  ::close(fd);
  return text;
}

// Who a lock file names.
struct Owner {
  bool readable = false;
  std::string host, boot, text = "an unreadable lock file";
};
Owner ownerOf(const std::string& held) {
  Owner o;
  try {
    const auto j = nlohmann::json::parse(held);
    o.host = j.at("host").get<std::string>();
    const auto pid = j.at("pid").get<long long>();
    if (j.contains("boot_id") && j["boot_id"].is_string()) o.boot = j["boot_id"].get<std::string>();
    o.text = "host " + o.host + ", process " + std::to_string(pid) +
             (j.contains("app") && j["app"].is_string() ? ", " + j["app"].get<std::string>() : "") +
             (j.contains("since") && j["since"].is_string() ? ", since " + j["since"].get<std::string>() : "");
    o.readable = true;
  } catch (const std::exception&) {
  }
  return o;
}

}  // namespace

CheckpointLock::CheckpointLock(std::string path, int fd, dev_t dev, ino_t ino)
    : path_(std::move(path)), fd_(fd), dev_(dev), ino_(ino) {
  removeAtSetUpExit(path_);  // a signal before the search ends the process at once, without this destructor
}

CheckpointLock::~CheckpointLock() {
  removeAtSetUpExit("");
  // Only this job's file, removed while still locked: a job that opened it meanwhile finds, once
  // it gets the lock, that the file at the path is another one, and starts again.
  if (!check()) ::unlink(path_.c_str());
  ::close(fd_);
}

std::optional<std::string> CheckpointLock::check() const {
  struct stat st {};
  if (::lstat(path_.c_str(), &st) != 0) return "the lock file '" + path_ + "' is gone";
  if (st.st_dev != dev_ || st.st_ino != ino_) return "the lock file '" + path_ + "' now names another job: " + readOther(path_);
  return std::nullopt;
}

std::unique_ptr<CheckpointLock> takeCheckpointLock(const std::string& dir, const std::string& app, ClaimNotes& notes) {
  const std::string path = dir + "/lock";
  const std::string host = hostName(), boot = bootId();
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) {
      // ELOOP, or EACCES where the kernel protects links in sticky folders (fs.protected_symlinks).
      struct stat link {};
      if (errno == ELOOP || (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)))
        throw InputError("--checkpoint: '" + path + "' is a symbolic link: refused (in a shared folder anyone could "
                         "plant one to make this job write into another file); remove it if it is yours, or choose another folder");
      throw InputError("--checkpoint: cannot create the lock file '" + path + "': " + std::strerror(errno));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
      const bool regular = S_ISREG(st.st_mode);
      ::close(fd);
      throw InputError("--checkpoint: '" + path + "' " +
                       (regular ? "belongs to another user (uid " + std::to_string(st.st_uid) + ")" : std::string("is not a regular file")) +
                       ": refused, nothing is written into a file someone else put there; choose a folder of your own");
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const Owner owner = ownerOf(readFrom(fd));
      ::close(fd);
      if (err == EWOULDBLOCK)
        throw InputError("--checkpoint: folder '" + dir + "' is in use by another job (" + owner.text + "; lock file '" + path +
                         "', held). Two jobs cannot write one folder: choose another folder, or wait for that job to end");
      throw InputError("--checkpoint: cannot lock '" + path + "' (" + std::strerror(err) +
                       "): the folder's file system does not support flock(2); choose a folder on one that does "
                       "(a local disk, NFS, Lustre mounted with -o flock)");
    }
    // Locked. Still the file at the path? A job that ended may have removed it just before.
    struct stat now {};
    if (::lstat(path.c_str(), &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
      ::close(fd);
      continue;
    }
    if (const std::string held = readFrom(fd); !held.empty()) {
      // Nobody holds it: its job is gone, if it ran on this machine (see checkpoint_lock.hpp).
      const Owner owner = ownerOf(held);
      const bool thisMachine = owner.readable && (owner.boot.empty() || boot.empty() ? owner.host == host : owner.boot == boot);
      if (!thisMachine) {
        ::close(fd);
        throw InputError("--checkpoint: folder '" + dir + "' is in use by another job (" + owner.text + "; lock file '" + path +
                         "'). It was written on another machine, where this one cannot check that job on every file "
                         "system: if that job is no longer running, remove '" + path + "' and run again");
      }
      notes.warnings.push_back("--checkpoint: took over the stale lock of '" + dir + "' (" + owner.text +
                               ": no process holds it; a job that ended without removing its lock)");
    }
    const std::string text = nlohmann::json{{"host", host}, {"boot_id", boot}, {"pid", static_cast<long long>(::getpid())},
                                            {"app", app}, {"since", utcTimestamp()}}.dump() + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()) ||
        ::fsync(fd) != 0) {
      const std::string why = std::strerror(errno);
      ::unlink(path.c_str());
      ::close(fd);
      throw InputError("--checkpoint: cannot write the lock file '" + path + "': " + why);
    }
    return std::make_unique<CheckpointLock>(path, fd, st.st_dev, st.st_ino);
  }
  throw InputError("--checkpoint: could not take the lock file '" + path + "' (other jobs kept replacing it); run again");
}

}  // namespace jackdaw::app
