#pragma once
// Lists the files of a repository to scan, in a deterministic order, without recursion and
// without ever following a symbolic link (so nothing outside the root is reached). In a git work
// tree the list is what git tracks (plus untracked files it does not ignore): a tracked file is
// scanned whatever .gitignore, a venv marker or a directory name says, and a submodule is listed
// as skipped. Elsewhere the directory tree is walked, and every directory left out is listed.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/finding.h"

namespace mpsready {

struct WalkOptions {
  std::vector<std::string> excludes;  // gitignore-style globs, relative to the root
  bool use_gitignore = true;
  bool use_git = true;  // list a git work tree's files with `git ls-files`
  uintmax_t max_file_size = 16u << 20;
  // Which files to list, by relative path (the front ends decide); unset lists nothing.
  std::function<bool(std::string_view)> wanted;
  // Files a front end reads only in part (frontend.h): listed up to partial_read_limit().
  std::function<bool(std::string_view)> read_in_part;
};

// The largest file read in part: 64 times the size limit (1 GiB by default). Only its headers are
// read, so its size costs no memory; the limit bounds what a reader may be asked to seek over.
uintmax_t partial_read_limit(uintmax_t max_file_size);

struct WalkedFile {
  std::string path;  // relative to the root, '/' separators
  std::filesystem::path absolute;
};

struct WalkResult {
  std::vector<WalkedFile> files;   // sorted by path
  std::vector<FileNote> skipped;   // not scanned, with the reason
  std::vector<FileNote> errors;    // could not be read
  size_t ignored = 0;              // excluded by .gitignore, --exclude or the default list
  // The excludes (WalkOptions::excludes, as given) that matched no path of the walk: a pattern
  // written `./train.py` or as an absolute path excludes nothing, and says so.
  std::vector<std::string> unmatched_excludes;
  bool from_git = false;           // listed by git, not walked
};

// `root` may be a directory or a single file.
WalkResult walk_repository(const std::filesystem::path& root, const WalkOptions& options);

// Directory names skipped by default (virtual environments, caches, build output, VCS data).
bool is_default_excluded_dir(const std::string& name);

}  // namespace mpsready
