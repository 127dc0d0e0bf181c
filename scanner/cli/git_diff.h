#pragma once
// Diff mode: which lines of the scanned tree were added or changed since a git revision, and the
// files of that revision, written out so they can be scanned too. Only the git command line is
// used (`git diff`, `git ls-tree`, `git cat-file`), never a checkout: nothing of the repository
// runs (external diff drivers, text conversions and fsmonitor hooks are switched off).
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/finding.h"

namespace mpsready {

struct GitDiff {
  std::string base;         // as the user gave it
  std::string base_commit;  // the commit it names
  // Per path relative to the scanned root: inclusive ranges of added or changed lines.
  std::map<std::string, std::vector<std::pair<int, int>>> added;
  std::set<std::string> changed_files;  // every path the diff touches (added, changed, deleted)
};

// Runs `git diff --unified=0 BASE -- .` in `root` (a directory inside a git work tree).
bool read_git_diff(const std::filesystem::path& root, const std::string& base, GitDiff& out, std::string& error);
// Parses the output of `git diff --unified=0 --src-prefix=a/ --dst-prefix=b/` (exposed for tests).
void parse_unified_diff(const std::string& text, GitDiff& out);
// Whether a finding of a plain (non-notebook) file starts on an added or changed line.
bool on_changed_line(const GitDiff& diff, const Finding& finding);
// Writes the regular files of `commit` under `root` (no links, no submodules, none larger than
// `max_size`) into `dir`, which must exist.
bool export_git_tree(const std::filesystem::path& root, const std::string& commit, const std::filesystem::path& dir,
                     uintmax_t max_size, std::string& error);

}  // namespace mpsready
