#pragma once
// Diff mode: which files of the scanned tree were added, changed or deleted since a git revision,
// and the files of that revision, written out so they can be scanned too. git is asked only for
// objects and the index (`git rev-parse`, `git ls-tree`, `git ls-files`, `git cat-file --batch`),
// never to check out or to compare with the work tree: nothing of the repository runs (no clean
// or smudge filter, text conversion, external diff driver, fsmonitor hook or pager), and its
// .gitattributes cannot make a file "binary" to hide its lines. Files are compared, and lines
// diffed (cli/line_diff.h), in this process.
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>

namespace mpsready {

struct GitDiff {
  std::string base;         // as the user gave it
  std::string base_commit;  // the commit it names
  // Every path relative to the scanned root whose bytes differ between BASE and the work tree
  // (added, changed or deleted; tracked files and BASE's regular files).
  std::set<std::string> changed_files;
};

// Resolves `base` in `root` (a directory inside a git work tree), writes BASE's regular files
// under `root` into `base_dir` (which must exist; see export_git_tree), and compares them with
// the tracked files of the work tree.
bool read_git_diff(const std::filesystem::path& root, const std::string& base, const std::filesystem::path& base_dir,
                   uintmax_t max_size, GitDiff& out, std::string& error);
// Writes the regular files of `commit` under `root` (no links, no submodules, none larger than
// `max_size`) into `dir`, which must exist; `listed` gets every regular file's path, written or not.
bool export_git_tree(const std::filesystem::path& root, const std::string& commit, const std::filesystem::path& dir,
                     uintmax_t max_size, std::set<std::string>& listed, std::string& error);

}  // namespace mpsready
