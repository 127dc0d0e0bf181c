#include "core/finding.h"

#include <algorithm>
#include <tuple>

namespace mpsready {

bool finding_less(const Finding& a, const Finding& b) {
  return std::tie(a.path, a.location.cell, a.location.line, a.location.column, a.rule,
                  a.location.end_line, a.location.end_column, a.message) <
         std::tie(b.path, b.location.cell, b.location.line, b.location.column, b.rule,
                  b.location.end_line, b.location.end_column, b.message);
}

void sort_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), finding_less);
}

void sort_notes(std::vector<FileNote>& notes) {
  std::stable_sort(notes.begin(), notes.end(), [](const FileNote& a, const FileNote& b) {
    return std::tie(a.path, a.reason) < std::tie(b.path, b.reason);
  });
}

std::string location_label(const std::string& path, int cell, int line) {
  std::string out = path + ":";
  if (cell) out += "cell " + std::to_string(cell) + ":";
  return out + std::to_string(line);
}

std::string location_label(const Finding& f) { return location_label(f.path, f.location.cell, f.location.line); }

}  // namespace mpsready
