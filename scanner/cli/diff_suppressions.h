#pragma once
// The suppression comments a change adds (`# mpsready: ignore[...]`, `ignore-file[...]`, the `//`
// forms in C++ and CUDA): they hide findings from the diff as from the whole tree, so a reviewer
// sees each one with its place. Matched by content like the findings (cli/diff_findings.h): a
// comment that only moved is not new.
#include <set>
#include <string>
#include <vector>

#include "cli/diff_files.h"

namespace mpsready {

struct AddedSuppression {
  std::string path;
  int cell = 0;  // notebooks: 1-based cell; 0 otherwise
  int line = 0;  // 1-based (in the cell, in a notebook)
  std::vector<std::string> rules;  // the patterns it names
  bool file_level = false;         // ignore-file[...]
  bool every_rule = false;         // a `*` pattern: it hides whatever rule is there
};

// The comments of the changed files that BASE's copy does not have, by path and line. Only those
// that can hide something count: in a file the scan reads (`scanned`), naming a pattern that
// matches one of `known_rules` (a comment that only mentions the syntax, `ignore[...]`, does not).
std::vector<AddedSuppression> added_suppressions(const std::vector<std::string>& changed_files, DiffFiles& files,
                                                 const std::set<std::string>& scanned,
                                                 const std::vector<std::string>& known_rules);

}  // namespace mpsready
