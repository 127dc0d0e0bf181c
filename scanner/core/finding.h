#pragma once
// A finding: one site in the scanned repository, as every reporter sees it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/impact.h"
#include "core/site_context.h"

namespace mpsready {

struct Location {
  int line = 0;        // 1-based
  int column = 0;      // 1-based, in Unicode code points
  int end_line = 0;    // 1-based
  int end_column = 0;  // 1-based, exclusive (the column just after the span)
  int cell = 0;        // notebooks: 1-based code-cell position among all cells; 0 otherwise
  // Notebooks: where the line's text starts in the .ipynb bytes (1-based), for a SARIF region;
  // 0 when not known or not a notebook.
  int file_line = 0;
  int file_column = 0;
};

struct Finding {
  std::string rule;
  std::string category;
  // The site's effective impact: written by the assessment alone (assess/impact_resolution.h),
  // from the rule and `site`; a front end or pass never sets it.
  Impact impact = Impact::info;
  std::string path;  // relative to the scanned root, '/' separators
  Location location;
  std::string message;
  std::string fix;
  std::string snippet;  // the source line the finding starts on
  bool guarded = false;
  bool mechanical = false;
  SiteContext site;  // what the front end and the repository passes saw that bears on the impact
  std::string mode;  // C++ findings: "tolerant" or "compile-commands" (which front-end mode saw it)
  // Set by the assessment from the repository model (never by a front end).
  std::string component;  // the component the file belongs to (`pkg`, `examples`, `(root)`)
  std::string role;       // its role (`core`, `tests`, ...)
  bool in_core = true;    // whether it counts towards the repository's verdict
  bool gap = false;       // a portable site in a corner of a core that selects MPS (not counted)
  std::string context;    // why its impact or weight differs from the site alone, for people
  // How a Mac reaches the function it sits in (model/mac_path.h): "default", "optional",
  // "not-on-mac" or "unreached"; "" for code the call graph does not cover (module level, C++).
  std::string mac_path;
  std::string mac_chain;  // the call chain from a root, with the deciding condition
  // Byte span in the analysed text; used to merge findings of one file, never printed.
  uint32_t start_byte = 0;
  uint32_t end_byte = 0;
};

// A file that could not be (fully) analysed, with a reason a user can act on.
struct FileNote {
  std::string path;
  std::string reason;
  // Nothing of it was analysed: it could not be read, parsed or finished (a crash, a time limit).
  // A verdict beside such a file is one of an incomplete scan, and reports say so.
  bool unread = false;
};

// Where a site is, as every output names it: `path:line`, or `path:cell N:line` in a notebook.
std::string location_label(const std::string& path, int cell, int line);
std::string location_label(const Finding& finding);

// Total order used by every output: path, cell, line, column, rule, end.
bool finding_less(const Finding& a, const Finding& b);
void sort_findings(std::vector<Finding>& findings);
void sort_notes(std::vector<FileNote>& notes);

}  // namespace mpsready
