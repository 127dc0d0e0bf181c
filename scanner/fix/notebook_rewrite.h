#pragma once
// Fixes in Jupyter notebooks. The scan sees a notebook as its code cells joined into one Python
// source (python/notebook_reader.h); its edits are on that text. Here they become edits of the
// notebook's own bytes: each one replaces bytes inside the JSON string of a code cell's "source",
// with the replacement JSON-escaped the way that string already is. Everything else in the file
// (outputs, metadata, key order, indentation, the other lines of the cell) keeps its bytes.
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fix/edit.h"
#include "python/notebook_reader.h"

namespace mpsready {

struct NotebookEdits {
  std::vector<Edit> edits;     // on the notebook's bytes, sorted; rule and location kept
  std::vector<LeftSite> left;  // Python-view edits that could not be carried over, and why
  std::vector<Edit> carried;   // the Python-view edits that `edits` carry over
  std::set<int> cells;         // 1-based positions of the cells the edits change
};

// `python_edits` are sorted, non-overlapping edits of `source.python`, the view of `notebook`.
NotebookEdits notebook_edits(std::string_view notebook, const NotebookSource& source,
                             const std::vector<Edit>& python_edits);

// Whether `after` is `before` with only the "source" of `cells` changed (both parse as JSON and
// are equal once those sources are set aside), and reads back as `expected_python`.
bool notebook_rewrite_is_exact(std::string_view before, std::string_view after, const std::set<int>& cells,
                               const std::string& expected_python);

// A notebook's text as the scan sees it: its code cells joined ("" when it cannot be read).
std::string notebook_python(std::string_view notebook);

bool is_notebook_path(std::string_view path);

// Text as a JSON string body (no quotes): `"`, `\` and control characters escaped; non-ASCII
// written as \uXXXX when `escape_non_ascii`, else as UTF-8. Exposed for tests.
std::string json_escape(std::string_view text, bool escape_non_ascii);

}  // namespace mpsready
