#include "cli/diff_files.h"

#include <algorithm>
#include <cctype>

#include "cli/line_diff.h"
#include "engine/file_reader.h"
#include "python/notebook_reader.h"

namespace mpsready {

namespace fs = std::filesystem;

namespace {

bool is_python_path(const std::string& path) { return path.ends_with(".py") || path.ends_with(".pyi"); }

std::vector<std::string> to_lines(const std::string& text) {
  std::vector<std::string> out;
  for (std::string_view line : split_lines(text)) out.emplace_back(line);
  return out;
}

// The name after `def`/`async def`/`class` at the start of a stripped line; "" for other lines.
std::string block_name(const std::string& line, size_t start) {
  std::string_view rest(line);
  rest.remove_prefix(start);
  for (const char* keyword : {"async def ", "def ", "class "}) {
    const std::string_view k(keyword);
    if (rest.substr(0, k.size()) != k) continue;
    rest.remove_prefix(k.size());
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    size_t n = 0;
    while (n < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[n])) || rest[n] == '_' ||
                               static_cast<unsigned char>(rest[n]) >= 0x80))
      ++n;
    return std::string(rest.substr(0, n));
  }
  return "";
}

}  // namespace

std::vector<std::string> python_scopes(const std::vector<std::string>& lines) {
  struct Block {
    size_t indent;
    std::string name;
  };
  std::vector<Block> stack;
  std::vector<std::string> out(lines.size());
  std::string current;
  char triple = 0;        // inside a ''' or """ string
  int depth = 0;          // open brackets
  bool continued = false;  // the line before ended with a backslash
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const bool logical_start = !triple && depth == 0 && !continued;
    size_t indent = 0, first = 0;
    while (first < line.size() && (line[first] == ' ' || line[first] == '\t' || line[first] == '\f')) {
      indent = line[first] == '\t' ? (indent / 8 + 1) * 8 : indent + 1;
      ++first;
    }
    const bool blank = first >= line.size() || line[first] == '#' || line[first] == '\r';
    if (logical_start && !blank) {
      while (!stack.empty() && stack.back().indent >= indent) stack.pop_back();
      current.clear();
      for (const Block& b : stack) current += (current.empty() ? "" : ".") + b.name;
      out[i] = current;
      if (std::string name = block_name(line, first); !name.empty()) stack.push_back({indent, std::move(name)});
    } else {
      out[i] = current;
    }
    // Strings, comments and brackets, for the next line.
    continued = false;
    for (size_t j = 0; j < line.size(); ++j) {
      const char c = line[j];
      if (triple) {
        if (c == '\\') ++j;
        else if (c == triple && line.compare(j, 3, std::string(3, triple)) == 0) {
          triple = 0;
          j += 2;
        }
        continue;
      }
      if (c == '#') break;
      if (c == '\'' || c == '"') {
        if (line.compare(j, 3, std::string(3, c)) == 0) {
          triple = c;
          j += 2;
          continue;
        }
        for (++j; j < line.size() && line[j] != c; ++j)
          if (line[j] == '\\') ++j;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      else if (c == '\\' && (j + 1 == line.size() || (j + 2 == line.size() && line[j + 1] == '\r'))) continued = true;
    }
  }
  return out;
}

long DiffSource::line_of(const Location& location) const {
  if (notebook) {
    const auto it = notebook_line.find({location.cell, location.line});
    return it == notebook_line.end() ? -1 : static_cast<long>(it->second);
  }
  const long line = static_cast<long>(location.line) - 1;
  return line >= 0 && line < static_cast<long>(lines.size()) ? line : -1;
}

std::pair<int, int> DiffSource::location_of(size_t line) const {
  if (notebook && line < cell_of_line.size() && line < line_in_cell.size()) return {cell_of_line[line], line_in_cell[line]};
  return {0, static_cast<int>(line) + 1};
}

std::string DiffSource::scope_of(const Location& location) const {
  const long line = line_of(location);
  return line >= 0 && static_cast<size_t>(line) < scopes.size() ? scopes[static_cast<size_t>(line)] : "";
}

DiffSource read_diff_source(const fs::path& root, const std::string& path, uintmax_t max_size) {
  DiffSource out;
  const fs::path rel(path);
  if (path.empty() || rel.is_absolute() || std::any_of(rel.begin(), rel.end(), [](const fs::path& c) { return c == ".."; }))
    return out;
  ReadResult read = read_repository_file(root / rel, max_size);
  if (!read.bytes) return out;
  out.exists = true;
  if (path.ends_with(".ipynb")) {
    NotebookResult nb = read_notebook(*read.bytes);
    if (nb.ok) {
      out.notebook = true;
      out.text = std::move(nb.source.python);
      out.cell_of_line = std::move(nb.source.cell_of_line);
      out.line_in_cell = std::move(nb.source.line_in_cell);
      for (size_t k = 0; k < out.cell_of_line.size() && k < out.line_in_cell.size(); ++k)
        out.notebook_line.emplace(std::make_pair(out.cell_of_line[k], out.line_in_cell[k]), k);
    } else {
      out.text = std::move(*read.bytes);
    }
  } else {
    out.text = std::move(*read.bytes);
  }
  out.lines = to_lines(out.text);
  if (out.notebook || is_python_path(path)) out.scopes = python_scopes(out.lines);
  return out;
}

const DiffFiles::File& DiffFiles::file(const std::string& path) {
  if (const auto it = files_.find(path); it != files_.end()) return it->second;
  File f;
  f.after = read_diff_source(after_root_, path, max_size_);
  if (changed(path)) {
    f.before = read_diff_source(before_root_, path, max_size_);
    std::vector<std::string_view> before(f.before.lines.begin(), f.before.lines.end());
    std::vector<std::string_view> after(f.after.lines.begin(), f.after.lines.end());
    f.added = added_lines(before, after);
  } else {
    f.before = f.after;
    f.added.assign(f.after.lines.size(), false);
  }
  return files_.emplace(path, std::move(f)).first->second;
}

}  // namespace mpsready
