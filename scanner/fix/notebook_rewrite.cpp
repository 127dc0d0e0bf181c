#include "fix/notebook_rewrite.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "python/notebook_positions.h"

namespace mpsready {

namespace {

// A cell's source: its strings joined, where each starts, and where its lines start.
struct CellText {
  std::string text;
  std::vector<size_t> part_start;  // per string, its offset in `text`
  std::vector<size_t> line_start;  // per 0-based line
};

CellText cell_text(const std::vector<SourceString>& parts) {
  CellText cell;
  for (const SourceString& p : parts) {
    cell.part_start.push_back(cell.text.size());
    cell.text += p.text;
  }
  cell.line_start.push_back(0);
  for (size_t k = 0; k < cell.text.size(); ++k)
    if (cell.text[k] == '\n') cell.line_start.push_back(k + 1);
  return cell;
}

struct CellPosition {
  int cell = 0;
  int line = 0;  // 1-based, in the cell
  size_t column = 0;
};

}  // namespace

bool is_notebook_path(std::string_view path) {
  return path.size() >= 6 && path.substr(path.size() - 6) == ".ipynb";
}

std::string notebook_python(std::string_view notebook) {
  NotebookResult read = read_notebook(notebook);
  return read.ok ? std::move(read.source.python) : std::string();
}

std::string json_escape(std::string_view text, bool escape_non_ascii) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  const auto unicode = [&](uint32_t unit) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
  };
  for (size_t k = 0; k < text.size(); ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      default: break;
    }
    if (c < 0x20) {
      unicode(c);
    } else if (c < 0x80 || !escape_non_ascii) {
      out += static_cast<char>(c);
    } else {
      // One UTF-8 sequence to \uXXXX (a surrogate pair above U+FFFF).
      const size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      uint32_t cp = length == 1 ? c : c & (0x3F >> (length - 1));
      for (size_t m = 1; m < length && k + m < text.size(); ++m)
        cp = (cp << 6) | (static_cast<unsigned char>(text[k + m]) & 0x3F);
      k += length - 1;
      if (cp >= 0x10000) {
        cp -= 0x10000;
        unicode(0xD800 + (cp >> 10));
        unicode(0xDC00 + (cp & 0x3FF));
      } else {
        unicode(cp);
      }
    }
  }
  return out;
}

NotebookEdits notebook_edits(std::string_view notebook, const NotebookSource& source,
                             const std::vector<Edit>& python_edits) {
  NotebookEdits out;
  std::map<int, std::vector<SourceString>> sources;
  const bool located = locate_cell_sources(notebook, sources);
  std::map<int, CellText> cells;
  for (const auto& [number, parts] : sources) cells.emplace(number, cell_text(parts));

  std::vector<size_t> python_line_start{0};
  for (size_t k = 0; k < source.python.size(); ++k)
    if (source.python[k] == '\n') python_line_start.push_back(k + 1);
  const auto position = [&](size_t offset) {
    const size_t k = static_cast<size_t>(
        std::upper_bound(python_line_start.begin(), python_line_start.end(), offset) - python_line_start.begin() - 1);
    CellPosition p;
    if (k < source.cell_of_line.size() && k < source.line_in_cell.size()) {
      p.cell = source.cell_of_line[k];
      p.line = source.line_in_cell[k];
    }
    p.column = offset - python_line_start[k];
    return p;
  };

  for (const Edit& e : python_edits) {
    const auto leave = [&](std::string reason) { out.left.push_back({e.path, e.rule, e.location, std::move(reason)}); };
    if (!located) {
      leave("the notebook's JSON could not be mapped to its cells; fix it by hand");
      continue;
    }
    const CellPosition from = position(e.start), to = position(e.end);
    const auto cell = cells.find(from.cell);
    if (from.cell == 0 || to.cell != from.cell || cell == cells.end() ||
        static_cast<size_t>(to.line) > cell->second.line_start.size()) {
      leave("the site's cell could not be found in the notebook; fix it by hand");
      continue;
    }
    const CellText& text = cell->second;
    const size_t start = text.line_start[static_cast<size_t>(from.line - 1)] + from.column;
    const size_t end = text.line_start[static_cast<size_t>(to.line - 1)] + to.column;
    if (end > text.text.size() || text.text.compare(start, end - start, e.original) != 0) {
      leave("the notebook cell's text differs from what was scanned; fix it by hand");
      continue;
    }
    // The one string of the source that holds the whole site.
    const std::vector<SourceString>& parts = sources[from.cell];
    size_t part = parts.size();
    for (size_t j = 0; j < parts.size(); ++j) {
      const size_t part_end = text.part_start[j] + parts[j].text.size();
      if (text.part_start[j] <= start && start < part_end && end <= part_end) part = j;
    }
    if (part == parts.size()) {
      leave("the site spans two strings of the cell's \"source\"; fix it by hand");
      continue;
    }
    const SourceString& s = parts[part];
    const size_t raw_start = s.raw_at[start - text.part_start[part]];
    const size_t raw_end = s.raw_at[end - text.part_start[part]];
    if (raw_start == kNoRaw || raw_end == kNoRaw) {
      leave("the site starts or ends inside an escaped character; fix it by hand");
      continue;
    }
    Edit json = e;
    json.start = static_cast<uint32_t>(raw_start);
    json.end = static_cast<uint32_t>(raw_end);
    json.original = std::string(notebook.substr(raw_start, raw_end - raw_start));
    json.replacement = json_escape(e.replacement, s.escapes_non_ascii);
    out.edits.push_back(std::move(json));
    out.carried.push_back(e);
    out.cells.insert(from.cell);
  }
  std::sort(out.edits.begin(), out.edits.end(), edit_less);
  return out;
}

bool notebook_rewrite_is_exact(std::string_view before, std::string_view after, const std::set<int>& cells,
                               const std::string& expected_python) {
  nlohmann::json a, b;
  try {
    a = nlohmann::json::parse(before);
    b = nlohmann::json::parse(after);
  } catch (const nlohmann::json::exception&) {
    return false;
  }
  if (!a.is_object() || !b.is_object() || !a.contains("cells") || !b.contains("cells") || !a["cells"].is_array() ||
      !b["cells"].is_array() || a["cells"].size() != b["cells"].size())
    return false;
  for (int cell : cells) {
    const size_t k = static_cast<size_t>(cell - 1);
    if (k >= a["cells"].size() || !a["cells"][k].is_object() || !b["cells"][k].is_object()) return false;
    a["cells"][k].erase("source");
    b["cells"][k].erase("source");
  }
  if (a != b) return false;
  const NotebookResult read = read_notebook(after);
  return read.ok && read.source.python == expected_python;
}

}  // namespace mpsready
