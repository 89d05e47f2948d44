#include "jackdaw/app/safe_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <streambuf>

#include "jackdaw/core/errors.hpp"
#include "jackdaw/core/memory_budget.hpp"

namespace jackdaw::app {


namespace {

std::string why(int err) { return std::strerror(err); }

// Writes all of [at, at + n) to fd; 0, or the errno of the failure.
int writeAll(int fd, const char* at, std::size_t n) {
  while (n > 0) {
    const ssize_t k = ::write(fd, at, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return k < 0 ? errno : EIO;
    at += k;
    n -= static_cast<std::size_t>(k);
  }
  return 0;
}

// A stream onto a file descriptor that remembers the first error (its errno) for commit().
class FdBuf final : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return error_; }
  int drain() {
    if (pbase() != pptr() && error_ == 0) error_ = writeAll(fd_, pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(buf_, buf_ + sizeof buf_);
    return error_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (drain() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) sputc(traits_type::to_char_type(c));
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() == 0 ? 0 : -1; }

 private:
  int fd_;
  int error_ = 0;
  char buf_[1 << 16];
};

// A name beside `path` that nobody uses yet, created empty (O_EXCL: never an existing file, never
// through a link); -1 with errno on failure.
int createTemporary(const std::string& path, std::string& tmp) {
  std::random_device rd;
  for (int attempt = 0; attempt < 16; ++attempt) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".part-%08x", static_cast<unsigned>(rd()));
    tmp = path + suffix;
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

}  // namespace

std::optional<std::string> writeNewFile(const std::string& path, std::span<const std::byte> bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int e = errno;
    return "cannot create '" + path + "': " + why(e) + (e == EEXIST ? " (it exists already; nothing is written into a file that was there)" : "");
  }
  if (const int e = writeAll(fd, reinterpret_cast<const char*>(bytes.data()), bytes.size())) {
    ::close(fd);
    ::unlink(path.c_str());
    return "cannot write '" + path + "': " + why(e);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int e = errno;
    ::unlink(path.c_str());
    return "cannot flush '" + path + "' to disk: " + why(e);
  }
  return std::nullopt;
}

ReadResult readRegularFile(const std::string& path, std::uint64_t limit, const std::string& limitWhat) {
  ReadResult r;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    r.error = "cannot be read (" + why(errno) + ")";
    return r;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    r.error = "is not a regular file";
    return r;
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > limit) {
    ::close(fd);
    r.error = "holds " + std::to_string(size) + " bytes (" + formatBytes(size) + "), more than " + limitWhat + "; not read";
    return r;
  }
  r.bytes.resize(static_cast<std::size_t>(size));
  std::size_t got = 0;
  while (got < r.bytes.size()) {
    const ssize_t k = ::read(fd, r.bytes.data() + got, r.bytes.size() - got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += static_cast<std::size_t>(k);
  }
  ::close(fd);
  if (got != r.bytes.size()) {
    r.bytes.clear();
    r.error = "cannot be read (it changed while being read)";
  }
  return r;
}

void checkOutputPath(const std::string& option, const std::string& path, const std::vector<std::string>& inputs) {
  if (path.empty()) return;
  const std::string what = option + " " + path + ": ";
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      throw InputError(what + "is a symbolic link: refused (a link could send the output into any file, e.g. one "
                              "planted in a shared folder); give the path of the file itself");
    if (S_ISDIR(st.st_mode)) throw InputError(what + "this is a folder, not a file");
    if (S_ISCHR(st.st_mode)) {  // /dev/null and the like: written in place
      const int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0) throw InputError(what + "cannot write this device (" + why(errno) + ")");
      ::close(fd);
      return;
    }
    if (!S_ISREG(st.st_mode)) throw InputError(what + "is neither a regular file nor a character device (a FIFO, a socket?): refused");
    if (st.st_uid != ::geteuid())
      throw InputError(what + "the file belongs to another user (uid " + std::to_string(st.st_uid) +
                       "): refused; write to a path of your own");
    for (const auto& in : inputs) {
      struct stat is {};
      if (::stat(in.c_str(), &is) == 0 && is.st_dev == st.st_dev && is.st_ino == st.st_ino)
        throw InputError(what + "is the input file '" + in + "': refused (the output would replace it)");
    }
  } else if (errno != ENOENT) {
    throw InputError(what + "cannot write this file (" + why(errno) + ")");
  }
  // The file is written under a temporary name beside it: that folder must take a new file.
  std::string tmp;
  const int fd = createTemporary(path, tmp);
  if (fd < 0) throw InputError(what + "cannot write this file (" + why(errno) + ")");
  ::close(fd);
  ::unlink(tmp.c_str());
}

struct OutputFile::Impl {
  std::string option, path, tmp;  // tmp empty: written in place (a device)
  int fd = -1;
  int openError = 0;
  std::unique_ptr<FdBuf> buf;
  std::unique_ptr<std::ostream> out;
  bool committed = false;
};

OutputFile::OutputFile(std::string option, std::string path) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.option = std::move(option);
  m.path = std::move(path);
  struct stat st {};
  if (::lstat(m.path.c_str(), &st) == 0 && S_ISCHR(st.st_mode)) {
    m.fd = ::open(m.path.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
  } else {
    m.fd = createTemporary(m.path, m.tmp);
    if (m.fd < 0) m.tmp.clear();
  }
  if (m.fd < 0) m.openError = errno;
  m.buf = std::make_unique<FdBuf>(m.fd);
  m.out = std::make_unique<std::ostream>(m.buf.get());
  if (m.fd < 0) m.out->setstate(std::ios::badbit);
}

OutputFile::~OutputFile() {
  Impl& m = *impl_;
  if (m.fd >= 0) ::close(m.fd);
  if (!m.committed && !m.tmp.empty()) ::unlink(m.tmp.c_str());
}

std::ostream& OutputFile::stream() { return *impl_->out; }
int OutputFile::fd() const { return impl_->fd; }

std::string OutputFile::abandon(int err) {
  Impl& m = *impl_;
  if (m.fd >= 0) ::close(m.fd);
  m.fd = -1;
  const bool replacing = !m.tmp.empty();
  if (replacing) ::unlink(m.tmp.c_str());
  m.tmp.clear();
  return m.option + " " + m.path + ": not written" + (err != 0 ? ": " + why(err) : std::string()) +
         (replacing ? "; no file was left there (a file that was there before is unchanged)" : "");
}

std::optional<std::string> OutputFile::commit() {
  Impl& m = *impl_;
  const auto fail = [&](int e) -> std::optional<std::string> { return abandon(e); };
  if (m.fd < 0) return fail(m.openError);
  m.out->flush();
  if (const int e = m.buf->drain()) return fail(e);
  // A full disk may show only now (NFS reports at fsync or close); a device cannot be synced.
  if (m.tmp.empty()) {
    const int rc = ::close(m.fd);
    m.fd = -1;
    if (rc != 0) return fail(errno);
  } else {
    if (::fsync(m.fd) != 0) return fail(errno);
    const int rc = ::close(m.fd);
    m.fd = -1;
    if (rc != 0) return fail(errno);
    if (::rename(m.tmp.c_str(), m.path.c_str()) != 0) return fail(errno);
  }
  m.committed = true;
  return std::nullopt;
}

}  // namespace jackdaw::app
