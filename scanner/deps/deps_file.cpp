#include "deps/deps_file.h"

#include <cctype>

namespace mpsready {

const char* to_string(DepsFileKind kind) {
  switch (kind) {
    case DepsFileKind::none: return "none";
    case DepsFileKind::requirements: return "requirements";
    case DepsFileKind::setup_py: return "setup.py";
    case DepsFileKind::setup_cfg: return "setup.cfg";
    case DepsFileKind::pyproject: return "pyproject";
    case DepsFileKind::pipfile: return "pipfile";
    case DepsFileKind::conda: return "conda";
    case DepsFileKind::dockerfile: return "dockerfile";
    case DepsFileKind::compose: return "compose";
    case DepsFileKind::cmake: return "cmake";
    case DepsFileKind::make: return "make";
    case DepsFileKind::shell: return "shell";
    case DepsFileKind::config: return "config";
  }
  return "none";
}

uint32_t Directive::file_offset(uint32_t text_offset) const {
  const DirectiveSegment* best = &segments.front();
  for (const auto& s : segments)
    if (s.text_offset <= text_offset) best = &s;
  return best->file_offset + (text_offset - best->text_offset);
}

void DepsFile::add_directive(std::string kind, std::string text_, uint32_t file_offset) {
  Directive d;
  d.kind = std::move(kind);
  d.text = std::move(text_);
  d.segments.push_back({0, file_offset});
  directives.push_back(std::move(d));
}

uint32_t DepsFile::offset_of(int line, int column) const {
  if (line < 1 || line > text->line_count()) return 0;
  const std::string_view l = text->line(line);
  const uint32_t line_start = static_cast<uint32_t>(l.data() - text->text().data());
  int cp = 1;
  size_t i = 0;
  while (i < l.size() && cp < column) {
    ++i;
    while (i < l.size() && (static_cast<unsigned char>(l[i]) & 0xC0) == 0x80) ++i;
    ++cp;
  }
  return line_start + static_cast<uint32_t>(i);
}

std::string normalize_package_name(std::string_view name) {
  std::string out;
  bool sep = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      sep = true;
      continue;
    }
    if (sep && !out.empty()) out += '-';
    sep = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace mpsready
