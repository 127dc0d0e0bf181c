#include "deps/script_reader.h"
#include "deps/line_space.h"

#include <algorithm>
#include <cctype>

namespace mpsready {
namespace {

using deps_text::is_space;

// Where the comment of a line starts (line.size() if none), by the file's syntax.
size_t comment_start(std::string_view line, DepsFileKind kind) {
  if (kind == DepsFileKind::dockerfile) {
    size_t i = 0;
    while (i < line.size() && is_space(line[i])) ++i;
    return i < line.size() && line[i] == '#' ? 0 : line.size();
  }
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (kind == DepsFileKind::make) {
      if (c == '#' && (i == 0 || line[i - 1] != '\\')) return i;
      continue;
    }
    if (quote) {
      if (c == '\\' && quote == '"') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || (c == '\'' && kind == DepsFileKind::shell)) quote = c;
    else if (c == '\\') ++i;
    else if (c == '#') {
      if (kind == DepsFileKind::cmake) return i;
      // In shell, `#` starts a comment only at the start of a word (`$#`, `a#b` are not).
      if (i == 0 || is_space(line[i - 1]) || line[i - 1] == ';' || line[i - 1] == '(' || line[i - 1] == '|' ||
          line[i - 1] == '&')
        return i;
    }
  }
  return line.size();
}

int paren_balance(std::string_view s) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (quote) {
      if (s[i] == '\\') ++i;
      else if (s[i] == quote) quote = 0;
    } else if (s[i] == '"') quote = '"';
    else if (s[i] == '(') ++depth;
    else if (s[i] == ')') --depth;
  }
  return depth;
}

struct Pending {
  Directive d;
  bool open = false;
  int depth = 0;
};

void finish(DepsFile& file, Pending& p) {
  if (!p.open) return;
  p.open = false;
  Directive d = std::move(p.d);
  p.d = Directive{};
  while (!d.text.empty() && is_space(d.text.back())) d.text.pop_back();
  if (d.text.empty()) return;
  if (file.kind == DepsFileKind::dockerfile) {
    size_t n = 0;
    while (n < d.text.size() && !is_space(d.text[n])) ++n;
    d.kind = d.text.substr(0, n);
    for (auto& c : d.kind) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    size_t rest = n;
    while (rest < d.text.size() && is_space(d.text[rest])) ++rest;
    // Drop the instruction; keep offsets right by shifting the segments.
    std::vector<DirectiveSegment> segs;
    for (size_t i = 0; i < d.segments.size(); ++i) {
      const uint32_t from = d.segments[i].text_offset;
      const uint32_t to = i + 1 < d.segments.size() ? d.segments[i + 1].text_offset : static_cast<uint32_t>(d.text.size());
      if (to <= rest) continue;
      const uint32_t begin = std::max<uint32_t>(from, static_cast<uint32_t>(rest));
      segs.push_back({static_cast<uint32_t>(begin - rest), d.segments[i].file_offset + (begin - from)});
    }
    d.text = d.text.substr(rest);
    d.segments = segs.empty() ? std::vector<DirectiveSegment>{{0, d.segments.front().file_offset}} : segs;
  } else if (file.kind == DepsFileKind::cmake) {
    size_t n = 0;
    while (n < d.text.size() && (std::isalnum(static_cast<unsigned char>(d.text[n])) || d.text[n] == '_')) ++n;
    d.kind = d.text.substr(0, n);
    for (auto& c : d.kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  } else if (file.kind == DepsFileKind::shell) {
    if (d.kind.empty()) d.kind = "command";
  } else {
    d.kind = "line";
  }
  file.directives.push_back(std::move(d));
}

}  // namespace

void ScriptReader::read(DepsFile& file) {
  const std::string_view text = file.text->text();
  Pending p;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    const size_t line_start = start;
    start = end + 1;

    size_t b = 0;
    while (b < line.size() && is_space(line[b])) ++b;
    if (file.kind == DepsFileKind::shell && !p.open && line.substr(b, 7) == "#SBATCH") {
      size_t v = b + 7;
      while (v < line.size() && is_space(line[v])) ++v;
      size_t e = line.size();
      while (e > v && is_space(line[e - 1])) --e;
      // The option ends at the first `#` after whitespace (a comment on the #SBATCH line).
      const std::string_view value = line.substr(v, e - v);
      size_t cut = value.size();
      for (size_t i = 1; i < value.size(); ++i)
        if (value[i] == '#' && is_space(value[i - 1])) {
          cut = i;
          break;
        }
      std::string option(value.substr(0, cut));
      while (!option.empty() && is_space(option.back())) option.pop_back();
      if (!option.empty()) file.add_directive("sbatch", option, static_cast<uint32_t>(line_start + v));
      if (end == text.size()) break;
      continue;
    }
    const size_t c = comment_start(line, file.kind);
    if (file.kind == DepsFileKind::dockerfile && c == 0) {  // a comment line, even inside a continuation
      if (end == text.size()) break;
      continue;
    }
    std::string_view piece = line.substr(b, c > b ? c - b : 0);
    while (!piece.empty() && is_space(piece.back())) piece.remove_suffix(1);
    bool continues = false;
    if (file.kind == DepsFileKind::cmake) {
      if (!piece.empty()) {
        const int depth = (p.open ? p.depth : 0) + paren_balance(piece);
        continues = depth > 0;
        p.depth = depth;
      } else {
        continues = p.open && p.depth > 0;
      }
    } else if (!piece.empty() && piece.back() == '\\') {
      continues = true;
      piece.remove_suffix(1);
      while (!piece.empty() && is_space(piece.back())) piece.remove_suffix(1);
    }
    if (!piece.empty()) {
      if (!p.open) {
        p.open = true;
        p.d = Directive{};
      } else {
        p.d.text += ' ';
      }
      p.d.segments.push_back({static_cast<uint32_t>(p.d.text.size()), static_cast<uint32_t>(line_start + b)});
      p.d.text += piece;
    }
    if (!continues) finish(file, p);
    if (end == text.size()) break;
  }
  finish(file, p);
}

}  // namespace mpsready
