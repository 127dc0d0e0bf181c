#include "engine/file_reader.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/open_beneath.h"

namespace mpsready {

ReadResult read_repository_file(const std::filesystem::path& path, uintmax_t max_size) {
  ReadResult result;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    result.error = errno == ELOOP ? "became a symbolic link during the scan; not followed"
                                  : std::string("cannot be read: ") + std::strerror(errno);
    return result;
  }
  return read_open_file(fd, max_size);
}

ReadResult read_file_beneath(const std::filesystem::path& root, std::string_view relative, uintmax_t max_size) {
  ReadResult result;
  int error = 0;
  const int fd = open_beneath(root, relative, false, error);
  if (fd < 0) {
    result.error = error == ELOOP   ? "reached through a symbolic link; not followed"
                   : error == EXDEV ? "outside the scanned root; not read"
                                    : std::string("cannot be read: ") + std::strerror(error);
    return result;
  }
  return read_open_file(fd, max_size);
}

ReadResult read_open_file(int fd, uintmax_t max_size) {
  ReadResult result;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    result.error = "not a regular file";
    return result;
  }
  if (static_cast<uintmax_t>(st.st_size) > max_size) {
    ::close(fd);
    result.error = "grew beyond the size limit during the scan";
    return result;
  }
  std::string bytes;
  bytes.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      result.error = std::string("read failed: ") + std::strerror(errno);
      return result;
    }
    if (n == 0) break;  // shrank while reading: keep what is there
    done += static_cast<size_t>(n);
  }
  bytes.resize(done);
  ::close(fd);
  result.bytes = std::move(bytes);
  return result;
}

}  // namespace mpsready
