#include "engine/repo_walker.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include <sys/stat.h>

#include "engine/file_reader.h"
#include "engine/git_listing.h"
#include "engine/ignore_rules.h"
#include "engine/notebook_stream.h"

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

std::string join(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

std::string size_note(uintmax_t size, uintmax_t limit) {
  return "larger than the size limit (" + std::to_string(size) + " > " + std::to_string(limit) +
         " bytes; see --max-file-size)";
}

// Why a directory of the walk outside git is not entered ("" when it is).
std::string skipped_dir_reason(const std::string& name, const fs::path& path) {
  std::error_code ec;
  if (fs::exists(path / "pyvenv.cfg", ec)) return "directory not scanned: a virtual environment (pyvenv.cfg)";
  if (is_default_excluded_dir(name))
    return "directory not scanned: its name marks build output, a cache, a virtual environment or version-control "
           "data (outside a git work tree; in one, what git tracks is scanned)";
  return "";
}

void finish(WalkResult& result) {
  std::sort(result.files.begin(), result.files.end(),
            [](const WalkedFile& a, const WalkedFile& b) { return a.path < b.path; });
  sort_notes(result.skipped);
  sort_notes(result.errors);
}

struct PendingDir {
  fs::path absolute;
  std::string relative;
  std::shared_ptr<const IgnoreList> ignores;
};

}  // namespace

uintmax_t partial_read_limit(uintmax_t max_file_size) {
  return max_file_size > UINTMAX_MAX / 64 ? UINTMAX_MAX : max_file_size * 64;
}

namespace {

using Excluded = std::function<bool(const std::string&, bool)>;
using Wanted = std::function<bool(const std::string&)>;

// Whether a file may be listed by size: a notebook's limit applies to its code cells, read later.
bool over_size(const std::string& rel, uintmax_t size, const WalkOptions& options) {
  if (is_notebook_file(rel)) return size > notebook_file_limit(options.max_file_size);
  if (options.read_in_part && options.read_in_part(rel)) return size > partial_read_limit(options.max_file_size);
  return size > options.max_file_size;
}

// The files git lists, checked on disk: every directory on the way must be a real directory (a
// link there is reported and nothing below it read), and the file a regular one within the limit.
class GitListWalk {
 public:
  GitListWalk(const fs::path& root, const WalkOptions& options, const Wanted& wanted, const Excluded& excluded,
              WalkResult& result)
      : root_(root), options_(options), wanted_(wanted), excluded_(excluded), result_(result) {}

  void tracked(const GitEntry& entry) {
    const std::string& rel = entry.path;
    if (entry.kind == GitEntryKind::submodule) {
      if (!excluded_path(rel, true))
        result_.skipped.push_back({rel, "git submodule: another repository, not scanned (scan its checkout on its own)"});
      return;
    }
    file(rel, entry.kind == GitEntryKind::symlink);
  }

  void untracked(const std::string& rel) {
    if (!rel.empty() && rel.back() == '/') {  // a nested repository git does not descend into
      const std::string dir = rel.substr(0, rel.size() - 1);
      if (!excluded_path(dir, true) && !default_skipped(dir))
        result_.skipped.push_back({dir, "directory not scanned: a git repository of its own, not tracked here"});
      return;
    }
    // Files no commit holds: the names and markers that usually mean generated content still apply.
    if (default_skipped(rel)) return;
    file(rel, false);
  }

 private:
  // --exclude on the path or a directory above it (a directory is counted once, as the walk does).
  bool excluded_path(const std::string& rel, bool is_dir) {
    for (size_t slash = rel.find('/'); slash != std::string::npos; slash = rel.find('/', slash + 1)) {
      const std::string dir = rel.substr(0, slash);
      auto [it, fresh] = dir_excluded_.try_emplace(dir, false);
      if (fresh && excluded_(dir, true)) {
        it->second = true;
        ++result_.ignored;
      }
      if (it->second) return true;
    }
    if (excluded_(rel, is_dir)) return ++result_.ignored, true;
    return false;
  }

  // An untracked file below a directory the walk outside git would skip (listed once).
  bool default_skipped(const std::string& rel) {
    for (size_t slash = rel.find('/'); slash != std::string::npos; slash = rel.find('/', slash + 1)) {
      const std::string dir = rel.substr(0, slash);
      auto [it, fresh] = untracked_dirs_.try_emplace(dir, "");
      if (fresh) {
        const size_t name_at = dir.rfind('/');
        it->second = skipped_dir_reason(name_at == std::string::npos ? dir : dir.substr(name_at + 1), root_ / dir);
        if (!it->second.empty()) {
          ++result_.ignored;
          result_.skipped.push_back({dir, it->second});
        }
      }
      if (!it->second.empty()) return true;
    }
    return false;
  }

  // Every directory above `rel` is a directory, not a link (checked once per directory).
  bool directories_plain(const std::string& rel) {
    for (size_t slash = rel.find('/'); slash != std::string::npos; slash = rel.find('/', slash + 1)) {
      const std::string dir = rel.substr(0, slash);
      auto [it, fresh] = dir_plain_.try_emplace(dir, true);
      if (fresh) {
        struct stat st {};
        if (::lstat((root_ / dir).c_str(), &st) != 0) {
          it->second = false;  // gone from the work tree
        } else if (!S_ISDIR(st.st_mode)) {
          it->second = false;
          if (S_ISLNK(st.st_mode)) result_.skipped.push_back({dir, "symbolic link, not followed (git lists files below it)"});
        }
      }
      if (!it->second) return false;
    }
    return true;
  }

  void file(const std::string& rel, bool git_link) {
    const bool want = wanted_(rel);
    if (!want && !git_link) return;
    if (excluded_path(rel, false) || !directories_plain(rel)) return;
    const fs::path path = root_ / rel;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return;  // deleted from the work tree: nothing to read
    if (S_ISLNK(st.st_mode)) {
      // Links are never followed: the target may lie outside the root, or loop.
      struct stat target {};  // stat only: nothing behind the link is read
      if (want || (::stat(path.c_str(), &target) == 0 && S_ISDIR(target.st_mode)))
        result_.skipped.push_back({rel, "symbolic link, not followed"});
      return;
    }
    if (!want) return;
    if (!S_ISREG(st.st_mode)) {
      result_.skipped.push_back({rel, "not a regular file"});
      return;
    }
    if (over_size(rel, static_cast<uintmax_t>(st.st_size), options_)) {
      result_.skipped.push_back({rel, size_note(static_cast<uintmax_t>(st.st_size), options_.max_file_size)});
      return;
    }
    result_.files.push_back({rel, path});
  }

  const fs::path& root_;
  const WalkOptions& options_;
  const Wanted& wanted_;
  const Excluded& excluded_;
  WalkResult& result_;
  std::unordered_map<std::string, bool> dir_plain_;
  std::unordered_map<std::string, bool> dir_excluded_;
  std::unordered_map<std::string, std::string> untracked_dirs_;
};

}  // namespace

WalkResult walk_repository(const fs::path& root, const WalkOptions& options) {
  WalkResult result;
  std::vector<std::unique_ptr<IgnorePattern>> exclude_patterns;
  std::vector<std::string> exclude_globs;  // beside each pattern, as given
  for (const auto& glob : options.excludes)
    if (auto p = IgnorePattern::parse(glob, "")) {
      exclude_patterns.push_back(std::move(p));
      exclude_globs.push_back(glob);
    }
  std::vector<bool> exclude_used(exclude_patterns.size());
  const Wanted wanted = [&](const std::string& rel) { return options.wanted && options.wanted(rel); };
  const Excluded excluded = [&](const std::string& rel, bool is_dir) {
    bool out = false;
    for (size_t i = 0; i < exclude_patterns.size(); ++i)
      if (exclude_patterns[i]->matches(rel, is_dir)) {
        out = !exclude_patterns[i]->negated();
        exclude_used[i] = true;
      }
    return out;
  };
  const auto note_unmatched = [&] {
    for (size_t i = 0; i < exclude_patterns.size(); ++i)
      if (!exclude_used[i] && !exclude_patterns[i]->negated()) result.unmatched_excludes.push_back(exclude_globs[i]);
  };

  std::error_code ec;
  const fs::file_status root_status = fs::status(root, ec);
  if (fs::is_regular_file(root_status)) {
    const std::string name = root.filename().string();
    if (wanted(name)) result.files.push_back({name, root});
    else result.skipped.push_back({name, "not a kind of file mpsready reads"});
    return result;
  }

  // In a git work tree the index says what the repository holds.
  if (options.use_git) {
    const GitListing listing = list_git_files(root, options.use_gitignore);
    if (listing.in_work_tree) {
      result.from_git = true;
      GitListWalk walk(root, options, wanted, excluded, result);
      for (const GitEntry& entry : listing.tracked) walk.tracked(entry);
      for (const std::string& rel : listing.untracked) walk.untracked(rel);
      finish(result);
      note_unmatched();
      return result;
    }
  }

  std::vector<PendingDir> stack;
  stack.push_back({root, "", nullptr});
  while (!stack.empty()) {
    PendingDir dir = std::move(stack.back());
    stack.pop_back();

    std::shared_ptr<const IgnoreList> ignores = dir.ignores;
    if (options.use_gitignore) {
      const fs::path gitignore = dir.absolute / ".gitignore";
      // Read as any file of the repository: no link, no more than the size limit. One that
      // cannot be read leaves nothing out (every file it would ignore is scanned), and says so.
      if (fs::is_regular_file(fs::symlink_status(gitignore, ec))) {
        const std::string rel = join(dir.relative, ".gitignore");
        const uintmax_t size = fs::file_size(gitignore, ec);
        const ReadResult read = !ec && size <= options.max_file_size ? read_repository_file(gitignore, options.max_file_size)
                                                                     : ReadResult{std::nullopt, size_note(size, options.max_file_size)};
        if (read.bytes)
          ignores = std::make_shared<IgnoreList>(dir.ignores, IgnoreList::parse_file(*read.bytes, dir.relative));
        else
          result.errors.push_back({rel, "not honoured, so nothing it lists is left out: " + read.error, false});
      }
    }

    std::vector<fs::directory_entry> entries;
    fs::directory_iterator it(dir.absolute, fs::directory_options::none, ec);
    if (ec) {
      result.errors.push_back({dir.relative.empty() ? "." : dir.relative,
                               "directory cannot be read: " + ec.message(), true});
      continue;
    }
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
      if (ec) break;
      entries.push_back(*it);
    }
    if (ec) result.errors.push_back({dir.relative.empty() ? "." : dir.relative,
                                     "directory listing stopped early: " + ec.message(), true});
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });

    std::vector<PendingDir> subdirs;
    for (const auto& entry : entries) {
      const std::string name = entry.path().filename().string();
      const std::string rel = join(dir.relative, name);
      const fs::file_status status = entry.symlink_status(ec);
      if (ec) {
        result.errors.push_back({rel, "cannot be inspected: " + ec.message(), true});
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
        if (excluded(rel, true)) {  // the user's own --exclude: counted, not listed
          ++result.ignored;
          continue;
        }
        std::string reason = skipped_dir_reason(name, entry.path());
        if (reason.empty() && ignores && ignores->ignored(rel, true))
          reason = "directory not scanned: ignored by .gitignore (outside a git work tree)";
        if (!reason.empty()) {
          ++result.ignored;
          result.skipped.push_back({rel, std::move(reason)});
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
      if (!ec && over_size(rel, size, options)) {
        result.skipped.push_back({rel, size_note(size, options.max_file_size)});
        continue;
      }
      result.files.push_back({rel, entry.path()});
    }
    // Push in reverse so directories are visited in name order.
    for (auto d = subdirs.rbegin(); d != subdirs.rend(); ++d) stack.push_back(std::move(*d));
  }
  finish(result);
  note_unmatched();
  return result;
}

}  // namespace mpsready
