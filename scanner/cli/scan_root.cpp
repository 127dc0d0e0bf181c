#include "cli/scan_root.h"

#include <algorithm>
#include <filesystem>

namespace mpsready {

namespace fs = std::filesystem;

namespace {

bool is_within(const fs::path& path, const fs::path& dir) {
  const auto [end, _] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
  return end == dir.end();
}

}  // namespace

std::string scan_root_problem(const std::string& given) {
  std::string trimmed = given;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  std::error_code ec;
  const fs::path real = fs::canonical(trimmed, ec);
  if (ec) return "";  // a missing path is reported by the caller
  if (fs::is_symlink(fs::symlink_status(trimmed, ec)))
    return given + " is a symbolic link (to " + real.string() + "); a root given as a link is not followed";

  fs::path written = fs::absolute(trimmed, ec).lexically_normal();
  if (!written.has_filename() && written.has_parent_path() && written != written.root_path())
    written = written.parent_path();  // "a/b/" -> "a/b"
  // Top down, as written: the innermost work tree, up to the first link inside one.
  fs::path prefix, worktree;
  for (const fs::path& part : written) {
    prefix /= part;
    if (!worktree.empty() && fs::is_symlink(fs::symlink_status(prefix, ec))) break;
    if (fs::exists(fs::symlink_status(prefix / ".git", ec))) worktree = prefix;
  }
  if (worktree.empty()) return "";
  const fs::path worktree_real = fs::canonical(worktree, ec);
  if (ec || is_within(real, worktree_real)) return "";
  return given + " leads to " + real.string() + ", outside the git work tree " + worktree.string();
}

}  // namespace mpsready
