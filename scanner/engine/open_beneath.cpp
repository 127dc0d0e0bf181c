#include "engine/open_beneath.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mpsready {

int open_beneath(const std::filesystem::path& root, std::string_view relative, bool directory, int& error) {
  error = 0;
  if (!relative.empty() && relative.front() == '/') {
    error = EXDEV;
    return -1;
  }
  // The root itself is the user's choice (it may be reached through a link); below it, nothing is.
  int dir = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) {
    error = errno;
    return -1;
  }
  size_t start = 0;
  while (true) {
    while (start < relative.size() && relative[start] == '/') ++start;
    size_t end = relative.find('/', start);
    if (end == std::string_view::npos) end = relative.size();
    std::string_view part = relative.substr(start, end - start);
    size_t next = end;
    while (next < relative.size() && relative[next] == '/') ++next;
    const bool last = next >= relative.size();
    if (part == "..") {
      ::close(dir);
      error = EXDEV;
      return -1;
    }
    if (part.empty() || part == ".") {
      if (last) return dir;  // "" or "." names the root (or the directory reached so far)
      start = next;
      continue;
    }
    const std::string name(part);
    const int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | ((last && !directory) ? O_NONBLOCK : O_DIRECTORY);
    const int fd = ::openat(dir, name.c_str(), flags);
    if (fd < 0) {
      error = errno;
      // Linux reports a link met with O_NOFOLLOW | O_DIRECTORY as ENOTDIR: say ELOOP for any link.
      struct stat st {};
      if (error == ENOTDIR && ::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        error = ELOOP;
      ::close(dir);
      return -1;
    }
    ::close(dir);
    if (last) return fd;
    dir = fd;
    start = next;
  }
}

}  // namespace mpsready
