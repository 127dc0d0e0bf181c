#pragma once
// A private copy of the scanned tree in a temporary directory, where fixed files are written and
// scanned again before anything in the root changes. Removed when it goes out of scope.
#include <filesystem>
#include <string>

namespace mpsready {

class ScratchTree {
 public:
  // Copies the regular files under `base` (not .git, not symlinks: a copy never reaches outside
  // the root). `base` may be a single file.
  explicit ScratchTree(const std::filesystem::path& base);
  ~ScratchTree();
  ScratchTree(const ScratchTree&) = delete;
  ScratchTree& operator=(const ScratchTree&) = delete;
  bool ok() const { return !dir_.empty(); }
  const std::filesystem::path& dir() const { return dir_; }
  // What a scan of the copy is given: the directory, or the copied file.
  std::filesystem::path scan_root() const { return scan_root_; }
  bool write(const std::string& relative, const std::string& text) const;

 private:
  std::filesystem::path dir_;
  std::filesystem::path scan_root_;
};

}  // namespace mpsready
