#pragma once
// The paths of `mpsready scan PATH...`: none is ".", one is the root scanned, several are parts
// of the repository in the current directory (a pre-commit hook's files): the whole repository is
// scanned, so that the verdict's model sees every file, and only their findings are reported.
#include <set>
#include <string>
#include <vector>

namespace mpsready {

struct ScanPaths {
  std::string root;
  // Several paths: the parts reported, relative to the root without "./" or a trailing '/'.
  std::vector<std::string> parts;
  std::set<std::string> files;  // those of `parts` that are files
};

// False with `error` set when a path does not exist or lies outside the current directory.
// `diff_mode` (--diff): one file is a part of the repository too, as in a pre-commit hook's run
// with one staged file (the diff needs the work tree, not the file alone).
bool resolve_scan_paths(const std::vector<std::string>& given, bool diff_mode, ScanPaths& out, std::string& error);
// Whether `path` (relative to the root) is one of `parts` or under one.
bool in_scan_parts(const ScanPaths& paths, const std::string& path);

}  // namespace mpsready
