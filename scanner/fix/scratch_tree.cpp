#include "fix/scratch_tree.h"

#include <fstream>

#include <stdlib.h>

namespace mpsready {

namespace fs = std::filesystem;

ScratchTree::ScratchTree(const fs::path& base) {
  std::string name = (fs::temp_directory_path() / "mpsready-fix-XXXXXX").string();
  if (!mkdtemp(name.data())) return;
  dir_ = name;
  std::error_code ec;
  if (!fs::is_directory(base, ec)) {
    scan_root_ = dir_ / base.filename();
    fs::copy_file(base, scan_root_, ec);
    if (ec) dir_.clear();
    return;
  }
  scan_root_ = dir_;
  // An iterator, not recursion: a deep tree cannot exhaust the stack.
  fs::recursive_directory_iterator it(base, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::directory_entry& entry = *it;
    if (entry.is_symlink(ec)) {
      if (entry.is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    const fs::path relative = fs::relative(entry.path(), base, ec);
    if (entry.is_directory(ec)) {
      if (entry.path().filename() == ".git") {
        it.disable_recursion_pending();
        continue;
      }
      fs::create_directories(dir_ / relative, ec);
    } else if (entry.is_regular_file(ec)) {
      fs::copy_file(entry.path(), dir_ / relative, ec);
    }
    ec.clear();
  }
}

ScratchTree::~ScratchTree() {
  std::error_code ec;
  if (!dir_.empty()) fs::remove_all(dir_, ec);
}

bool ScratchTree::write(const std::string& relative, const std::string& text) const {
  const fs::path target = fs::is_directory(scan_root_) ? dir_ / relative : scan_root_;
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  out << text;
  return bool(out);
}

}  // namespace mpsready
