#pragma once
// The files git tracks below the scanned root, read with `git ls-files` (the index, not the
// directory tree): what a checkout of the repository holds, whatever `.gitignore`, a venv marker
// or a directory name says. git runs with nothing taken from the checkout that could run a
// command (no system config, fsmonitor off, no optional locks; ls-files runs no hooks, filters
// or drivers).
#include <filesystem>
#include <string>
#include <vector>

namespace mpsready {

enum class GitEntryKind { file, symlink, submodule };

struct GitEntry {
  std::string path;  // relative to the root, '/' separators, as git spells it
  GitEntryKind kind = GitEntryKind::file;
};

struct GitListing {
  bool in_work_tree = false;       // false: not a git work tree (or git is missing): walk instead
  std::vector<GitEntry> tracked;   // sorted by path, one entry per path
  std::vector<std::string> untracked;  // files git does not track nor ignore (nested repos end in '/')
};

// `exclude_standard`: leave out untracked files that .gitignore and .git/info/exclude ignore.
GitListing list_git_files(const std::filesystem::path& root, bool exclude_standard);

}  // namespace mpsready
