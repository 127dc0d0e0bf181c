#pragma once
// Replacing a file of an untrusted repository without ever writing outside it. The repository
// may hold links anywhere (a committed `train.py.tmp -> ~/.ssh/authorized_keys`, a directory
// link `src -> /etc`) and may change while we work, so no path is ever resolved as a whole:
// every directory is opened from the root down with O_NOFOLLOW, the new text goes to a fresh
// temporary (O_CREAT|O_EXCL|O_NOFOLLOW, a random name) in the file's own directory, and
// renameat() puts it in place, which replaces a directory entry and never follows one.
#include <string>
#include <string_view>

namespace mpsready {

class SafeRoot {
 public:
  // Opens `root` (a directory) with O_DIRECTORY, and O_NOFOLLOW unless `follow_root_link`
  // (the user asked to follow a root that is a link). ok() says whether it worked.
  explicit SafeRoot(const std::string& root, bool follow_root_link = false);
  ~SafeRoot();
  SafeRoot(const SafeRoot&) = delete;
  SafeRoot& operator=(const SafeRoot&) = delete;
  bool ok() const { return fd_ >= 0; }
  const std::string& error() const { return error_; }

  // Checks that `relative` ('/'-separated; no "..", ".", empty or absolute component) names a
  // regular file reached through real directories only, whose bytes are still `expected`.
  // False with `error` set otherwise. Nothing is written.
  bool check(const std::string& relative, std::string_view expected, std::string& error) const;

  // check(), then replaces the file with `text`: the temporary gets the file's mode (and owner,
  // where permitted), is synced, and renamed over the file. The temporary is removed on every
  // failure, and SIGINT, SIGTERM, SIGHUP and SIGQUIT are held while it exists, so that an
  // interrupted run leaves either the old file or the new one, and no temporary.
  bool replace(const std::string& relative, std::string_view expected, std::string_view text, std::string& error) const;

 private:
  int fd_ = -1;
  std::string error_;
};

}  // namespace mpsready
