#include "python/notebook_reader.h"
#include "engine/test_point.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "python/notebook_positions.h"

namespace mpsready {
namespace {

// Cell magics whose body is still Python; any other (%%bash, %%writefile, …) is not.
bool python_cell_magic(std::string_view line) {
  for (std::string_view magic : {"%%time", "%%timeit", "%%capture", "%%prun", "%%debug"}) {
    if (line.substr(0, magic.size()) == magic) return true;
  }
  return false;
}

void append_line(NotebookSource& out, std::string line, int cell, int line_number) {
  out.python += line;
  out.python += '\n';
  out.cell_of_line.push_back(cell);
  out.line_in_cell.push_back(line_number);
}

// Where each line of the joined source starts in the notebook's bytes, read from the cells'
// JSON strings: a line's first character, or the string's opening for a line that starts inside
// an escape. Left at 0 where the strings cannot be located.
void locate_lines(std::string_view json_text, NotebookSource& source) {
  source.file_line.assign(source.cell_of_line.size(), 0);
  source.file_column.assign(source.cell_of_line.size(), 0);
  std::map<int, std::vector<SourceString>> strings;
  if (!locate_cell_sources(json_text, strings)) return;
  std::vector<size_t> raw_line_start{0};
  for (size_t k = 0; k < json_text.size(); ++k)
    if (json_text[k] == '\n') raw_line_start.push_back(k + 1);
  int cell = 0;
  std::vector<size_t> raw_of_line;  // per 1-based line of the current cell (index 0 unused)
  for (size_t k = 0; k < source.cell_of_line.size(); ++k) {
    if (source.cell_of_line[k] != cell) {
      cell = source.cell_of_line[k];
      raw_of_line.assign(1, kNoRaw);
      size_t fallback = kNoRaw;
      bool at_line_start = true;
      for (const SourceString& part : strings[cell]) {
        for (size_t b = 0; b < part.text.size(); ++b) {
          if (part.raw_at[b] != kNoRaw) fallback = part.raw_at[b];
          if (at_line_start) raw_of_line.push_back(part.raw_at[b] != kNoRaw ? part.raw_at[b] : fallback);
          at_line_start = part.text[b] == '\n';
        }
      }
    }
    const size_t line = static_cast<size_t>(source.line_in_cell[k]);
    if (line >= raw_of_line.size() || raw_of_line[line] == kNoRaw) continue;
    const size_t raw = raw_of_line[line];
    const size_t row = static_cast<size_t>(std::upper_bound(raw_line_start.begin(), raw_line_start.end(), raw) -
                                           raw_line_start.begin());
    source.file_line[k] = static_cast<int>(row);
    source.file_column[k] = static_cast<int>(raw - raw_line_start[row - 1]) + 1;
  }
}

}  // namespace

NotebookResult read_notebook(std::string_view json_text) {
  NotebookResult result;
  nlohmann::json doc;
  try {
    test_point("notebook", json_text);
    doc = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    result.error = std::string("not a valid notebook: JSON error at byte ") + std::to_string(e.byte);
    return result;
  } catch (const nlohmann::json::exception&) {  // out_of_range: a number too large for a double
    result.error = "not a valid notebook: a number in its JSON is out of range";
    return result;
  }
  if (!doc.is_object() || !doc.contains("cells") || !doc["cells"].is_array()) {
    result.error = "not a valid notebook: no \"cells\" array (nbformat 4 is supported)";
    return result;
  }
  const auto& cells = doc["cells"];
  for (size_t index = 0; index < cells.size(); ++index) {
    const auto& cell = cells[index];
    // Odd shapes are tolerated (the other cells are still read) but never silently: the first
    // one is named in `problem`, so the file gets an `errors` entry.
    const auto note = [&](const std::string& what) {
      if (result.problem.empty()) result.problem = "cell " + std::to_string(index + 1) + " " + what + "; it was not read whole";
    };
    if (!cell.is_object()) {
      note("is not an object");
      continue;
    }
    const auto type = cell.find("cell_type");
    if (type == cell.end() || !type->is_string() || *type != "code") continue;
    const int cell_number = static_cast<int>(index) + 1;
    ++result.source.code_cells;
    std::string text;
    const auto source = cell.find("source");
    if (source != cell.end()) {
      if (source->is_string()) {
        text = source->get<std::string>();
      } else if (source->is_array()) {
        for (const auto& part : *source) {
          if (part.is_string()) text += part.get<std::string>();
          else note("has a \"source\" entry that is not a string");
        }
      } else {
        note("has a \"source\" that is neither a string nor an array of strings");
      }
    }
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= text.size()) {
      const size_t end = text.find('\n', start);
      if (end == std::string::npos) {
        if (start < text.size()) lines.push_back(text.substr(start));
        break;
      }
      lines.push_back(text.substr(start, end - start));
      start = end + 1;
    }
    const bool foreign_cell = !lines.empty() && lines[0].rfind("%%", 0) == 0 &&
                              !python_cell_magic(lines[0]);
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string line = lines[i];
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const size_t first = line.find_first_not_of(" \t");
      if (foreign_cell) {
        line.assign(line.size(), ' ');
        if (!line.empty()) line[0] = '#';
      } else if (first != std::string::npos && (line[first] == '!' || line[first] == '%')) {
        line[first] = '#';
      }
      append_line(result.source, std::move(line), cell_number, static_cast<int>(i) + 1);
    }
    // A blank separator keeps a cell's unfinished statement from running into the next cell.
    append_line(result.source, "", cell_number, static_cast<int>(lines.size()) + 1);
  }
  locate_lines(json_text, result.source);
  result.ok = true;
  return result;
}

}  // namespace mpsready
