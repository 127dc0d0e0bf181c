#include "cli/scan_paths.h"

#include <filesystem>

namespace mpsready {

namespace fs = std::filesystem;

bool resolve_scan_paths(const std::vector<std::string>& given, bool diff_mode, ScanPaths& out, std::string& error) {
  std::error_code ec;
  const bool one_file = given.size() == 1 && fs::is_regular_file(fs::symlink_status(given[0], ec));
  if (given.size() <= 1 && !(diff_mode && one_file)) {
    out.root = ".";
    if (!given.empty()) out.root.assign(given[0]);
    return true;
  }
  out.root = ".";
  const fs::path cwd = fs::current_path(ec);
  for (const std::string& p : given) {
    const auto status = fs::symlink_status(p, ec);
    if (!fs::exists(status)) {
      error = "path not found: " + p;
      return false;
    }
    fs::path rel = fs::path(p).is_absolute() ? fs::path(p).lexically_relative(cwd) : fs::path(p);
    rel = rel.lexically_normal();
    std::string s = rel.generic_string();
    while (!s.empty() && s.back() == '/') s.pop_back();
    if (s.empty() || rel.is_absolute() || s == ".." || s.rfind("../", 0) == 0) {
      error = "several paths are parts of the repository in the current directory; " + p + " is outside it";
      return false;
    }
    if (s == ".") s.clear();  // the whole root
    out.parts.push_back(s);
    if (fs::is_regular_file(status)) out.files.insert(s);
  }
  return true;
}

bool in_scan_parts(const ScanPaths& paths, const std::string& path) {
  for (const std::string& part : paths.parts) {
    if (part.empty() || path == part) return true;
    if (path.size() > part.size() && path.compare(0, part.size(), part) == 0 && path[part.size()] == '/') return true;
  }
  return false;
}

}  // namespace mpsready
