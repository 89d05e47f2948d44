// Files written so that nobody else who can write the same folder (a shared scratch folder, sticky
// and world-writable) can turn them against their owner: nothing is ever written through a
// symbolic link or into a file that already exists, and nothing half-written is left behind.
//
//   writeNewFile(dir / "rank-00000.bin", bytes);           // O_CREAT | O_EXCL | O_NOFOLLOW, fsync'd
//
//   checkOutputPath("--stats", path, inputs);             // set-up: InputError if it cannot be safe
//   OutputFile out("--stats", path);                      // a fresh temporary beside path
//   out.stream() << doc;                                  // (or write to out.fd())
//   if (auto why = out.commit()) …                        // fsync, close, rename over path
//
// An output path may name a regular file of the user's own (replaced whole by rename(2), so a hard
// link planted at that name is replaced, never written through), nothing yet (created the same way),
// or a character device such as /dev/null (written in place). A symbolic link, a file of another
// user, a folder, a FIFO nobody reads, or one of the run's input files is refused at set-up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace jackdaw::app {

// Writes `bytes` to `path`, which must not exist yet (never through a link, never into a file that
// someone else put there), and fsyncs it. An error message, or nullopt.
std::optional<std::string> writeNewFile(const std::string& path, std::span<const std::byte> bytes);

// The whole of a regular file, refused (an error message) if it is not one, or holds more than
// `limit` bytes (`limitWhat` says what that limit is, for the message); checked before anything is read.
struct ReadResult {
  std::vector<std::byte> bytes;
  std::string error;  // non-empty: nothing was read
};
ReadResult readRegularFile(const std::string& path, std::uint64_t limit, const std::string& limitWhat);

// Set-up (rank 0, before any input is read): InputError naming `option` unless `path` can be written
// by the rules above. `inputs`: the files the run reads (an output path that is one of them is refused).
void checkOutputPath(const std::string& option, const std::string& path, const std::vector<std::string>& inputs);

// One output file being written. The destructor removes the temporary unless commit() succeeded.
class OutputFile {
 public:
  OutputFile(std::string option, std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Where to write (one of the two, not both); failures are reported by commit().
  std::ostream& stream();
  int fd() const;
  // Flushes, fsyncs and closes the file and renames the temporary over the path: nullopt, or the
  // message for stderr ("--stats out.json: not written: No space left on device; …").
  std::optional<std::string> commit();
  // Gives up after a failed write through fd() (errno `err`, 0 if unknown): the message, as commit's.
  std::string abandon(int err);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace jackdaw::app
