#include "fix/safe_write.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <fcntl.h>
#include <pthread.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mpsready {

namespace {

std::string errno_text(int err) { return std::strerror(err); }

// Closes a descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& o) noexcept : fd(o.fd) { o.fd = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd = o.fd;
      o.fd = -1;
    }
    return *this;
  }
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// The components of a relative path; false when one is empty, "." or "..", or the path is absolute.
bool split_relative(const std::string& relative, std::vector<std::string>& parts) {
  if (relative.empty() || relative[0] == '/') return false;
  size_t start = 0;
  while (start <= relative.size()) {
    const size_t slash = relative.find('/', start);
    const size_t end = slash == std::string::npos ? relative.size() : slash;
    std::string part = relative.substr(start, end - start);
    if (part.empty() || part == "." || part == ".." || part.find('\0') != std::string::npos) return false;
    parts.push_back(std::move(part));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return !parts.empty();
}

// The directory holding `relative`, opened component by component from `root_fd` without
// following a link; `leaf` gets the file's name.
Fd open_parent(int root_fd, const std::string& relative, std::string& leaf, std::string& error) {
  std::vector<std::string> parts;
  if (!split_relative(relative, parts)) {
    error = relative + ": not a plain path inside the root; not written";
    return Fd();
  }
  leaf = parts.back();
  parts.pop_back();
  Fd dir(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
  if (dir.fd < 0) {
    error = relative + ": " + errno_text(errno);
    return Fd();
  }
  for (const std::string& part : parts) {
    Fd next(::openat(dir.fd, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (next.fd < 0) {
      const int err = errno;
      error = relative + (err == ELOOP || err == ENOTDIR ? ": a directory on its path is a symbolic link or not a directory; not written"
                                                         : ": cannot open its directory " + part + ": " + errno_text(err));
      return Fd();
    }
    dir = std::move(next);
  }
  return dir;
}

// Opens the file itself without following a link or blocking on a FIFO, and checks that it is a
// regular file holding `expected`.
Fd open_target(int dir_fd, const std::string& leaf, const std::string& relative, std::string_view expected,
               struct stat& st, std::string& error) {
  Fd file(::openat(dir_fd, leaf.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (file.fd < 0) {
    const int err = errno;
    error = relative + (err == ELOOP ? ": a symbolic link; not written" : ": cannot be opened: " + errno_text(err));
    return Fd();
  }
  if (::fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = relative + ": not a regular file; not written";
    return Fd();
  }
  // The bytes fixed are the bytes read by the scan: a file changed since then is left alone.
  bool same = static_cast<uintmax_t>(st.st_size) == expected.size();
  std::string bytes(same ? expected.size() : 0, '\0');
  size_t done = 0;
  while (same && done < bytes.size()) {
    const ssize_t n = ::read(file.fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  char extra = 0;
  if (!same || done != bytes.size() || bytes != expected || ::read(file.fd, &extra, 1) != 0) {
    error = relative + ": changed since it was scanned; not written";
    return Fd();
  }
  return file;
}

std::string random_suffix() {
  unsigned char raw[8];
  if (::getrandom(raw, sizeof raw, 0) != static_cast<ssize_t>(sizeof raw)) {
    std::random_device rd;
    for (unsigned char& c : raw) c = static_cast<unsigned char>(rd());
  }
  std::string out;
  char hex[3];
  for (unsigned char c : raw) {
    std::snprintf(hex, sizeof hex, "%02x", c);
    out += hex;
  }
  return out;
}

// The signals that end a run from outside: held while a temporary file exists.
class HeldSignals {
 public:
  HeldSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&set, s);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~HeldSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  sigset_t old_;
};

bool write_all(int fd, std::string_view text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

SafeRoot::SafeRoot(const std::string& root, bool follow_root_link) {
  fd_ = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow_root_link ? 0 : O_NOFOLLOW));
  if (fd_ < 0)
    error_ = errno == ELOOP ? root + ": the root is a symbolic link; nothing written"
                            : root + ": cannot open the root: " + errno_text(errno);
}

SafeRoot::~SafeRoot() {
  if (fd_ >= 0) ::close(fd_);
}

bool SafeRoot::check(const std::string& relative, std::string_view expected, std::string& error) const {
  if (fd_ < 0) {
    error = error_;
    return false;
  }
  std::string leaf;
  const Fd dir = open_parent(fd_, relative, leaf, error);
  if (dir.fd < 0) return false;
  struct stat st {};
  return open_target(dir.fd, leaf, relative, expected, st, error).fd >= 0;
}

bool SafeRoot::replace(const std::string& relative, std::string_view expected, std::string_view text,
                       std::string& error) const {
  if (fd_ < 0) {
    error = error_;
    return false;
  }
  std::string leaf;
  const Fd dir = open_parent(fd_, relative, leaf, error);
  if (dir.fd < 0) return false;
  struct stat st {};
  const Fd target = open_target(dir.fd, leaf, relative, expected, st, error);
  if (target.fd < 0) return false;

  const HeldSignals held;
  // A fresh name each time, created only if nothing is there: a planted link or file of that
  // name makes the create fail (EEXIST), never followed or truncated.
  std::string temporary;
  Fd out;
  for (int attempt = 0; attempt < 16 && out.fd < 0; ++attempt) {
    temporary = "." + leaf.substr(0, 200) + ".mpsready-" + random_suffix();
    out = Fd(::openat(dir.fd, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (out.fd < 0 && errno != EEXIST) break;
  }
  if (out.fd < 0) {
    error = relative + ": cannot create a temporary file beside it: " + errno_text(errno);
    return false;
  }
  const auto fail = [&](const std::string& what) {
    const int err = errno;
    ::unlinkat(dir.fd, temporary.c_str(), 0);
    error = relative + ": " + what + (err ? ": " + errno_text(err) : "");
    return false;
  };
  errno = 0;
  if (!write_all(out.fd, text)) return fail("cannot write the new text");
  // The owner where permitted (running as root on a user's tree), then the mode: chown clears
  // set-id bits, so it goes first.
  if (st.st_uid != ::geteuid() || st.st_gid != ::getegid()) {
    const int not_permitted = ::fchown(out.fd, st.st_uid, st.st_gid);  // then the file becomes ours
    (void)not_permitted;
  }
  if (::fchmod(out.fd, st.st_mode & 07777) != 0) return fail("cannot set the mode");
  if (::fsync(out.fd) != 0) return fail("cannot sync the new text");
  out.reset();
  // The entry may have been swapped since it was opened: rename only over the file that was
  // checked. (renameat replaces whatever entry is there without following it, so even a swap
  // after this check cannot lead outside the root.)
  struct stat now {};
  if (::fstatat(dir.fd, leaf.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0 || now.st_dev != st.st_dev ||
      now.st_ino != st.st_ino) {
    errno = 0;
    return fail("changed while it was being written; not written");
  }
  if (::renameat(dir.fd, temporary.c_str(), dir.fd, leaf.c_str()) != 0) return fail("cannot replace the file");
  ::fsync(dir.fd);
  return true;
}

}  // namespace mpsready
