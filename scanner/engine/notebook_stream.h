#pragma once
// Notebooks larger than the size limit, usually because of image outputs: the file is streamed
// through a JSON SAX parser that keeps only each cell's type and source (outputs, attachments and
// metadata go past without being stored), and the size limit applies to the code cells' source.
// The result is a small notebook with the same cells in the same order, so the notebook reader
// and every position (cell, line) stay as they would be for the whole file.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mpsready {

bool is_notebook_file(std::string_view path);

// The largest notebook file streamed at all (outputs included): 64 times the size limit.
uintmax_t notebook_file_limit(uintmax_t max_file_size);

struct NotebookStream {
  std::optional<std::string> reduced;  // a notebook JSON with only cell types and sources
  std::string error;    // cannot be read, or is not valid JSON (for `errors`)
  std::string skipped;  // the code cells exceed the size limit (for `skipped`)
};

// Reads `path` (opened with O_NOFOLLOW, a regular file within notebook_file_limit).
NotebookStream stream_notebook(const std::string& path, uintmax_t max_file_size);

}  // namespace mpsready
