// Reading an instance file safely: one place that every reader goes through.
//
//   const std::string text = jackdaw::readTextFile(path, limit, "TSPLIB file");   // throws InputError
//   jackdaw::TextLines lines(text);
//   for (std::string_view line; lines.next(line);) ... lines.number() ...
//   throw InputError(path, lines.number(), "expected a number, found '" + jackdaw::excerpt(token) + "'");
//
// readInputFile opens the path without blocking (O_NONBLOCK: opening a FIFO for reading would
// otherwise wait for a writer forever), looks at what it opened (fstat on the descriptor, so the
// answer is about the file actually read) and refuses anything but a regular file: a FIFO, a
// character device (/dev/zero never ends, /dev/null is empty), a directory, a socket. A file larger
// than the memory limit is refused before it is read. The file is read once into one string; the
// readers parse views of it, so a file is held in memory once.
//
// readTextFile adds the checks of a text format: no UTF-8 byte-order mark (named in visible text,
// since the mark itself prints as nothing) and no NUL byte.
//
// excerpt() bounds what an error message quotes of the file: a parse error on a 1 GB line quotes
// 80 characters of it, and shows invisible bytes as \xNN.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/memory_budget.hpp"

namespace jackdaw {

// At most `max` characters of `s` for a message: printable ASCII as is, any other byte as \xNN,
// and "..." where it was cut.
inline std::string excerpt(std::string_view s, std::size_t max = 80) {
  std::string out;
  std::size_t shown = 0;
  for (unsigned char c : s) {
    if (shown >= max) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    }
    ++shown;
  }
  return out;
}

namespace detail {

inline const char* fileKind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

// Closes a descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace detail

// The whole content of the regular file at `path`; InputError naming the file for anything else.
// `what` names the kind of file in messages ("cannot open DIMACS file '…'").
inline std::string readInputFile(const std::string& path, std::uint64_t memoryLimit = defaultMemoryLimitBytes(),
                                 const std::string& what = "input file") {
  detail::Fd f;
  do {
    f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  } while (f.fd < 0 && errno == EINTR);
  if (f.fd < 0) throw InputError("cannot open " + what + " '" + path + "': " + std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw InputError("cannot open " + what + " '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw InputError("'" + path + "' is not a regular file but " + detail::fileKind(st.st_mode) + "; the " + what +
                     " must be a regular file");
  // Regular files never block; clear the flag so reads behave as usual.
  const int flags = ::fcntl(f.fd, F_GETFL);
  if (flags >= 0) ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK);
  const auto size = static_cast<std::uint64_t>(st.st_size > 0 ? st.st_size : 0);
  requireMemory(size, memoryLimit, "the " + what + " '" + path + "' (" + formatBytes(size) + " on disk)");
  std::string text;
  text.reserve(static_cast<std::size_t>(size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t got = ::read(f.fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError("cannot read " + what + " '" + path + "': " + std::strerror(errno));
    if (got == 0) break;
    // A file that grows while it is read (or a /proc file whose size says 0) still has a limit.
    requireMemory(text.size() + static_cast<std::uint64_t>(got), memoryLimit, "the " + what + " '" + path + "'");
    text.append(buf, static_cast<std::size_t>(got));
  }
  return text;
}

// requireMemory for what line `line` of file `path` asks for: the message names file:line.
inline void requireMemoryAt(const std::string& path, std::size_t line, std::uint64_t bytes, std::uint64_t limit,
                            const std::string& what) {
  try {
    requireMemory(bytes, limit, what);
  } catch (const InputError& e) {
    throw InputError(path, line, e.what());
  }
}

// The 1-based line of byte `offset` in `text`.
inline std::size_t lineOfOffset(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

// The checks every text format shares: no byte-order mark, no NUL byte. `name` is the file's.
inline void checkText(const std::string& name, std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    throw InputError(name, 1,
                     "the file starts with a UTF-8 byte-order mark (EF BB BF); save it as plain text without one");
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    throw InputError(name, lineOfOffset(text, nul), "a NUL byte: this is not a text file");
}

// readInputFile, then checkText.
inline std::string readTextFile(const std::string& path, std::uint64_t memoryLimit = defaultMemoryLimitBytes(),
                                const std::string& what = "input file") {
  std::string text = readInputFile(path, memoryLimit, what);
  checkText(path, text);
  return text;
}

// The lines of a text, numbered from 1, without their end ("\n", and a "\r" before it).
class TextLines {
 public:
  explicit TextLines(std::string_view text) : text_(text) {}

  // The next line into `line`; false at the end of the text.
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  // The line `next` would return, without taking it; false at the end.
  bool peek(std::string_view& line) const {
    TextLines copy = *this;
    return copy.next(line);
  }
  bool done() const { return pos_ >= text_.size(); }
  // The number of the line last returned (0 before the first).
  std::size_t number() const { return number_; }
  // How many lines the whole text has (a last line without its "\n" counts).
  std::size_t count() const {
    std::size_t n = 0;
    for (char c : text_) n += c == '\n';
    return n + (!text_.empty() && text_.back() != '\n');
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t number_ = 0;
};

}  // namespace jackdaw
