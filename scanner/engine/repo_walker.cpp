#include "engine/repo_walker.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <unordered_set>

#include "engine/ignore_rules.h"

namespace mpsready {
namespace fs = std::filesystem;

bool is_default_excluded_dir(const std::string& name) {
  static const std::unordered_set<std::string> names = {
      ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", "node_modules",
      "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", "build", "dist",
      "site-packages", "__pypackages__", "_build", "buck-out", ".eggs", ".ipynb_checkpoints",
      ".direnv", ".idea", ".vscode"};
  if (names.count(name)) return true;
  return name.size() > 9 && name.compare(name.size() - 9, 9, ".egg-info") == 0;
}

namespace {

std::string read_small_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string join(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

struct PendingDir {
  fs::path absolute;
  std::string relative;
  std::shared_ptr<const IgnoreList> ignores;
};

}  // namespace

WalkResult walk_repository(const fs::path& root, const WalkOptions& options) {
  WalkResult result;
  std::vector<std::unique_ptr<IgnorePattern>> exclude_patterns;
  for (const auto& glob : options.excludes)
    if (auto p = IgnorePattern::parse(glob, "")) exclude_patterns.push_back(std::move(p));
  const auto wanted = [&](const std::string& rel) { return options.wanted && options.wanted(rel); };
  const auto excluded = [&](const std::string& rel, bool is_dir) {
    bool out = false;
    for (const auto& p : exclude_patterns)
      if (p->matches(rel, is_dir)) out = !p->negated();
    return out;
  };

  std::error_code ec;
  const fs::file_status root_status = fs::status(root, ec);
  if (fs::is_regular_file(root_status)) {
    const std::string name = root.filename().string();
    if (wanted(name)) result.files.push_back({name, root});
    else result.skipped.push_back({name, "not a kind of file mpsready reads"});
    return result;
  }

  std::vector<PendingDir> stack;
  stack.push_back({root, "", nullptr});
  while (!stack.empty()) {
    PendingDir dir = std::move(stack.back());
    stack.pop_back();

    std::shared_ptr<const IgnoreList> ignores = dir.ignores;
    if (options.use_gitignore) {
      const fs::path gitignore = dir.absolute / ".gitignore";
      if (fs::is_regular_file(fs::symlink_status(gitignore, ec)))
        ignores = std::make_shared<IgnoreList>(
            dir.ignores, IgnoreList::parse_file(read_small_file(gitignore), dir.relative));
    }

    std::vector<fs::directory_entry> entries;
    fs::directory_iterator it(dir.absolute, fs::directory_options::none, ec);
    if (ec) {
      result.errors.push_back({dir.relative.empty() ? "." : dir.relative,
                               "directory cannot be read: " + ec.message()});
      continue;
    }
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
      if (ec) break;
      entries.push_back(*it);
    }
    if (ec) result.errors.push_back({dir.relative.empty() ? "." : dir.relative,
                                     "directory listing stopped early: " + ec.message()});
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });

    std::vector<PendingDir> subdirs;
    for (const auto& entry : entries) {
      const std::string name = entry.path().filename().string();
      const std::string rel = join(dir.relative, name);
      const fs::file_status status = entry.symlink_status(ec);
      if (ec) {
        result.errors.push_back({rel, "cannot be inspected: " + ec.message()});
        continue;
      }
      if (fs::is_symlink(status)) {
        // Links are never followed: the target may lie outside the root, or loop.
        std::error_code target_ec;  // stat only: nothing behind the link is read
        if (wanted(rel) || fs::is_directory(fs::status(entry.path(), target_ec)))
          result.skipped.push_back({rel, "symbolic link, not followed"});
        continue;
      }
      const bool is_dir = fs::is_directory(status);
      if (is_dir) {
        if (is_default_excluded_dir(name) || fs::exists(entry.path() / "pyvenv.cfg", ec) ||
            excluded(rel, true) || (ignores && ignores->ignored(rel, true))) {
          ++result.ignored;
          continue;
        }
        subdirs.push_back({entry.path(), rel, ignores});
        continue;
      }
      if (!wanted(rel)) continue;
      if (excluded(rel, false) || (ignores && ignores->ignored(rel, false))) {
        ++result.ignored;
        continue;
      }
      if (!fs::is_regular_file(status)) {
        result.skipped.push_back({rel, "not a regular file"});
        continue;
      }
      const uintmax_t size = entry.file_size(ec);
      if (!ec && size > options.max_file_size) {
        result.skipped.push_back({rel, "larger than the size limit (" + std::to_string(size) +
                                           " > " + std::to_string(options.max_file_size) +
                                           " bytes; see --max-file-size)"});
        continue;
      }
      result.files.push_back({rel, entry.path()});
    }
    // Push in reverse so directories are visited in name order.
    for (auto d = subdirs.rbegin(); d != subdirs.rend(); ++d) stack.push_back(std::move(*d));
  }
  std::sort(result.files.begin(), result.files.end(),
            [](const WalkedFile& a, const WalkedFile& b) { return a.path < b.path; });
  sort_notes(result.skipped);
  sort_notes(result.errors);
  return result;
}

}  // namespace mpsready
