#pragma once
// Suppression comments: `# mpsready: ignore[rule-id] reason` (Python, notebooks) and
// `// mpsready: ignore[rule-id] reason` (C++, CUDA), on the finding's line or alone on the line
// above. Several ids are separated by commas; `*` matches every rule and a trailing `*` a prefix
// (`py-cuda-*`). The marker counts only inside a real comment: a string literal that contains
// it, or a line inside a multi-line string, suppresses nothing. `mpsready: ignore-file[ids]` in a
// comment anywhere in a file suppresses those rules in the whole file.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/scanner.h"

namespace mpsready {

enum class CommentSyntax { python, cpp };

// Per 0-based line of `text`: the rule patterns its suppression comment names (empty: none), and
// whether the comment stands alone on its line (so it also covers the next line).
struct LineSuppression {
  std::vector<std::string> patterns;
  bool alone = false;
  bool file_level = false;  // ignore-file[...]: every line of the file
  bool bare = false;        // a bare `mpsready: ignore`: patterns is {"*"}, as ruff's bare `# noqa`
  // A comment that says `mpsready: ignore` (or `ignore-file`) but names no valid id (`ignore[py a]`,
  // no closing `]`, a bare `ignore-file`): its text, so that the scan can say it suppresses nothing
  // instead of failing silently.
  std::string malformed;
};
std::vector<LineSuppression> suppression_comments(std::string_view text, CommentSyntax syntax);
// The comment syntax of a file by its name: `//` in C++ and CUDA files, `#` in every other.
CommentSyntax comment_syntax_of(const std::string& path);

// Whether `rule` matches one of `patterns` ("*", "prefix*", or the exact id).
bool suppression_matches(const std::vector<std::string>& patterns, const std::string& rule);

// What is checked besides the comments themselves (README "Suppressions").
struct SuppressionChecks {
  // Every rule id there is: a pattern that matches none is reported (empty: not checked).
  std::vector<std::string> known_rules;
  // The rules that ran: a pattern that matches one of them but suppresses nothing is reported
  // as unused (empty: not checked). One that names only rules that did not run is left alone.
  std::vector<std::string> enabled_rules;
  // The configuration's per_file_ignores: glob -> rule patterns.
  std::vector<std::pair<std::string, std::vector<std::string>>> per_file_ignores;
  // ScanOptions::replaced_files: these bytes, not the disk's, are the files' texts.
  const std::map<std::string, std::string>* replaced_files = nullptr;
};

// Moves every suppressed finding of `result.findings` to `result.suppressed`, and reports unknown
// and unused suppressions in `result.suppression_notes`. The files are read again from `root` (a
// directory, or the one file scanned), never through a symbolic link and never beyond
// `max_file_size`; a file that cannot be read again suppresses nothing.
void apply_suppressions(const std::filesystem::path& root, ScanResult& result, uintmax_t max_file_size,
                        const SuppressionChecks& checks = {});

}  // namespace mpsready
