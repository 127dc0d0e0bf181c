#pragma once
// The two sides of a diff-mode scan, one file at a time: BASE's copy and the work tree's, as
// lines (a notebook as its code cells joined, since its JSON lines say nothing of cells), which
// lines the change added, and the function each line is in. Read on demand and kept, so that the
// findings and the suppressions of one file share one read.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli/git_diff.h"
#include "core/finding.h"

namespace mpsready {

struct DiffSource {
  bool exists = false;
  bool notebook = false;
  std::string text;                 // the file (a notebook: its code cells joined)
  std::vector<std::string> lines;   // of `text`
  std::vector<int> cell_of_line;    // notebooks: per line, its 1-based cell
  std::vector<int> line_in_cell;    // notebooks: per line, its 1-based line in that cell
  std::map<std::pair<int, int>, size_t> notebook_line;  // (cell, line in cell) -> line
  // Python files and notebooks: per line, the functions and classes around it ("Net.forward");
  // empty for other files.
  std::vector<std::string> scopes;

  // The 0-based line of a location; -1 when the file has no such line.
  long line_of(const Location& location) const;
  // The location of a 0-based line: (cell, 1-based line in it), cell 0 outside a notebook.
  std::pair<int, int> location_of(size_t line) const;
  // The enclosing scope of a location ("" outside any, or when unknown).
  std::string scope_of(const Location& location) const;
};

// Reads `path` (relative) under `root` as diff mode compares it; `exists` is false when it is
// not there, is a link, or is larger than `max_size`.
DiffSource read_diff_source(const std::filesystem::path& root, const std::string& path, uintmax_t max_size);

// Per line of a Python source: the chain of `def` and `class` blocks it is in, by indentation
// (one pass with an explicit stack; a line in a bracket or a multi-line string keeps the scope of
// the line before).
std::vector<std::string> python_scopes(const std::vector<std::string>& lines);

class DiffFiles {
 public:
  DiffFiles(std::filesystem::path before_root, std::filesystem::path after_root, const GitDiff& diff,
            uintmax_t max_size)
      : before_root_(std::move(before_root)), after_root_(std::move(after_root)), diff_(diff), max_size_(max_size) {}

  struct File {
    DiffSource before;
    DiffSource after;
    std::vector<bool> added;  // per line of `after`: added or changed since BASE
  };
  // The file at `path` on both sides (an unchanged file is read once).
  const File& file(const std::string& path);
  bool changed(const std::string& path) const { return diff_.changed_files.count(path) > 0; }

 private:
  std::filesystem::path before_root_;
  std::filesystem::path after_root_;
  const GitDiff& diff_;
  uintmax_t max_size_;
  std::map<std::string, File> files_;
};

}  // namespace mpsready
