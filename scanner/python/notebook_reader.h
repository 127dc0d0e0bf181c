#pragma once
// Jupyter notebooks as Python: the code cells joined into one source (so imports in one cell
// resolve names in the next), with a map back to (cell, line). Shell (`!cmd`) and magic (`%x`)
// lines become comments of the same length, so columns stay right.
#include <string>
#include <string_view>
#include <vector>

namespace mpsready {

struct NotebookSource {
  std::string python;              // the code cells, one after another
  std::vector<int> cell_of_line;   // per 0-based line of `python`: 1-based cell position
  std::vector<int> line_in_cell;   // per 0-based line of `python`: 1-based line in that cell
  // Per 0-based line of `python`: where its text starts in the .ipynb bytes (1-based line and
  // column of the JSON string that holds it); 0 where it has none (a cell's closing blank line).
  std::vector<int> file_line;
  std::vector<int> file_column;
  int code_cells = 0;
};

struct NotebookResult {
  bool ok = false;
  std::string error;  // why the notebook could not be read
  std::string problem;  // when read, the first cell that could not be read whole ("" = none)
  NotebookSource source;
};

NotebookResult read_notebook(std::string_view json_text);

}  // namespace mpsready
