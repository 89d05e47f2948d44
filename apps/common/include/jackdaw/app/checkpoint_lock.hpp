// DIR/lock: which job writes the checkpoint folder DIR.
//
// The kernel holds the lock: rank 0 opens DIR/lock and takes flock(LOCK_EX) on it for the whole
// run, so a job that ends in any way (exit, kill -9, a crash) releases it, and nothing about its
// liveness is guessed from a process id (ids repeat across PID namespaces: two containers on one
// host can both be process 1). The file also holds a line of JSON for people and messages:
//
//   {"host": "n12", "boot_id": "7ce6…", "pid": 4242, "app": "nqueens", "since": "2026-…Z"}
//
// A lock file that nobody holds was left by a job that is gone, and is taken over with a warning
// when the lock names this machine (the same boot_id, i.e. the same running kernel, or the same
// host name for a lock without one). A lock file written on another machine is refused even when
// no lock is held on it from here: on some shared file systems (Lustre mounted with -o localflock,
// NFS with local_lock=flock) flock(2) is seen only on the machine that took it. Otherwise on NFS,
// Linux emulates flock with byte-range locks the server holds for every client.
//
// The file is opened without following a link (O_NOFOLLOW) and must be a regular file of this
// user's: a link or another user's file planted in a shared folder is refused, never written.
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jackdaw::app {

class CheckpointLock {
 public:
  // `fd` holds flock(LOCK_EX) on the file that was at `path` (device `dev`, inode `ino`).
  CheckpointLock(std::string path, int fd, dev_t dev, ino_t ino);
  // Removes the file if it is still this job's, then releases the lock.
  ~CheckpointLock();
  CheckpointLock(const CheckpointLock&) = delete;
  CheckpointLock& operator=(const CheckpointLock&) = delete;
  const std::string& path() const { return path_; }
  // DIR/lock is still the file this job locked (nullopt), or what happened to it.
  std::optional<std::string> check() const;

 private:
  std::string path_;
  int fd_;
  dev_t dev_;
  ino_t ino_;
};

struct ClaimNotes {
  std::vector<std::string> warnings;  // a stale lock taken over, a set replaced (rank 0 logs them)
};

// Takes DIR/lock for this job (rank 0 only), or throws InputError naming the job that holds it,
// or why the lock cannot be taken (a link, another user's file, a file system without flock).
std::unique_ptr<CheckpointLock> takeCheckpointLock(const std::string& dir, const std::string& app, ClaimNotes& notes);

}  // namespace jackdaw::app
