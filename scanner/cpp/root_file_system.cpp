#include "root_file_system.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Chrono.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include "engine/file_reader.h"
#include "engine/open_beneath.h"

namespace mpsready {
namespace {

namespace vfs = llvm::vfs;

std::error_code not_found() { return std::make_error_code(std::errc::no_such_file_or_directory); }

vfs::Status status_of(const llvm::Twine& name, const struct stat& st) {
  const auto type = S_ISDIR(st.st_mode) ? llvm::sys::fs::file_type::directory_file
                                        : llvm::sys::fs::file_type::regular_file;
  return vfs::Status(name, llvm::sys::fs::UniqueID(st.st_dev, st.st_ino), llvm::sys::toTimePoint(st.st_mtime),
                     st.st_uid, st.st_gid, static_cast<uint64_t>(st.st_size), type,
                     static_cast<llvm::sys::fs::perms>(st.st_mode & 07777));
}

// A file already read whole: nothing of the disk is touched after openFileForRead.
class ReadFile final : public vfs::File {
 public:
  ReadFile(vfs::Status status, std::string bytes) : status_(std::move(status)), bytes_(std::move(bytes)) {}
  llvm::ErrorOr<vfs::Status> status() override { return status_; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine& name, int64_t, bool,
                                                              bool) override {
    return llvm::MemoryBuffer::getMemBufferCopy(bytes_, name);
  }
  std::error_code close() override { return {}; }

 private:
  vfs::Status status_;
  std::string bytes_;
};

class RootFileSystem final : public vfs::FileSystem {
 public:
  RootFileSystem(std::string root, uintmax_t max_file_size)
      : root_(std::move(root)), cwd_(root_), max_file_size_(max_file_size) {}

  llvm::ErrorOr<vfs::Status> status(const llvm::Twine& path) override {
    std::string rel;
    if (!below_root(path, rel)) return not_found();
    int error = 0;
    const int fd = open_beneath(root_, rel, false, error);
    if (fd < 0) return not_found();
    struct stat st {};
    const bool ok = ::fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
    ::close(fd);
    if (!ok) return not_found();
    return status_of(path, st);
  }

  llvm::ErrorOr<std::unique_ptr<vfs::File>> openFileForRead(const llvm::Twine& path) override {
    std::string rel;
    if (!below_root(path, rel)) return not_found();
    int error = 0;
    const int fd = open_beneath(root_, rel, false, error);
    if (fd < 0) return not_found();
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      return not_found();
    }
    ReadResult read = read_open_file(fd, max_file_size_);  // closes fd
    if (!read.bytes) return not_found();
    st.st_size = static_cast<off_t>(read.bytes->size());
    return std::unique_ptr<vfs::File>(new ReadFile(status_of(path, st), std::move(*read.bytes)));
  }

  // Header search never needs a listing on Linux; refusing keeps directories unreadable.
  vfs::directory_iterator dir_begin(const llvm::Twine&, std::error_code& ec) override {
    ec = std::make_error_code(std::errc::operation_not_permitted);
    return {};
  }

  std::error_code setCurrentWorkingDirectory(const llvm::Twine& path) override {
    llvm::SmallString<256> p;
    path.toVector(p);
    if (!llvm::sys::path::is_absolute(p)) {
      llvm::SmallString<256> joined(cwd_);
      llvm::sys::path::append(joined, p);
      p = joined;
    }
    llvm::sys::path::remove_dots(p, true);
    cwd_ = std::string(p.str());
    return {};
  }
  llvm::ErrorOr<std::string> getCurrentWorkingDirectory() const override { return cwd_; }

 private:
  // The path below the root, relative to it ("" for the root), once `.` and `..` are removed
  // lexically (no link is ever followed, so the lexical answer is the real one).
  bool below_root(const llvm::Twine& path, std::string& rel) const {
    llvm::SmallString<256> p;
    path.toVector(p);
    if (!llvm::sys::path::is_absolute(p)) {
      llvm::SmallString<256> joined(cwd_);
      llvm::sys::path::append(joined, p);
      p = joined;
    }
    llvm::sys::path::remove_dots(p, true);
    const llvm::StringRef s = p.str();
    if (s == root_) {
      rel.clear();
      return true;
    }
    if (!s.startswith(root_) || s.size() <= root_.size() || s[root_.size()] != '/') return false;
    rel = s.substr(root_.size() + 1).str();
    return true;
  }

  std::string root_;
  std::string cwd_;
  uintmax_t max_file_size_;
};

}  // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> make_root_file_system(const std::filesystem::path& root,
                                                                      uintmax_t max_file_size) {
  std::string r = root.string();
  while (r.size() > 1 && r.back() == '/') r.pop_back();
  return llvm::makeIntrusiveRefCnt<RootFileSystem>(std::move(r), max_file_size);
}

}  // namespace mpsready
