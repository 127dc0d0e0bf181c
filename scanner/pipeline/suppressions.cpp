#include "pipeline/suppressions.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "core/source_kinds.h"
#include "core/source_text.h"
#include "engine/file_kinds.h"
#include "engine/file_reader.h"
#include "engine/ignore_rules.h"
#include "python/notebook_reader.h"

namespace mpsready {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool is_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool valid_pattern(std::string_view p) {
  if (p.empty() || p.size() > 128) return false;
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '*') {
      if (i + 1 != p.size()) return false;  // only a trailing '*'
    } else if (!is_word(c) && c != '-' && c != '.') {
      return false;
    }
  }
  return true;
}

// The patterns of `mpsready: ignore[a, b] reason` (or `ignore-file[...]`) inside one comment's text.
std::vector<std::string> parse_marker(std::string_view comment, bool& file_level, bool& bare) {
  std::vector<std::string> out;
  const size_t at = comment.find("mpsready:");
  if (at == std::string_view::npos) return out;
  std::string_view rest = comment.substr(at + 9);
  while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
  file_level = rest.substr(0, 12) == "ignore-file[";
  if (file_level) {
    rest.remove_prefix(12);
  } else {
    // A bare `mpsready: ignore` (ruff's bare `# noqa`): every rule on this line, like `ignore[*]`.
    // It is one line only; a whole file's opt-out always names its rules.
    if (rest.substr(0, 6) == "ignore" && (rest.size() == 6 || is_space(rest[6]))) {
      // `ignore py-a` is an id list without its brackets, not a reason: malformed, not bare.
      std::string_view next = rest.substr(6);
      while (!next.empty() && is_space(next.front())) next.remove_prefix(1);
      const std::string_view word = next.substr(0, std::min(next.find_first_of(" \t,"), next.size()));
      if (!word.empty() && valid_pattern(word) && word.find_first_of("-*") != std::string_view::npos) return out;
      bare = true;
      out.emplace_back("*");
      return out;
    }
    if (rest.substr(0, 7) != "ignore[") return out;
    rest.remove_prefix(7);
  }
  const size_t close = rest.find(']');
  if (close == std::string_view::npos) return out;
  std::string_view list = rest.substr(0, close);
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view item = trim(list.substr(0, comma));
    if (valid_pattern(item)) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

// `mpsready: ignore…` as written, when a comment holds the marker's words but parse_marker found no
// valid id in it; "" otherwise (no marker at all). Shortened: a comment may be long.
std::string malformed_marker(std::string_view comment) {
  const size_t at = comment.find("mpsready:");
  if (at == std::string_view::npos) return "";
  std::string_view rest = comment.substr(at + 9);
  while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
  if (rest.substr(0, 6) != "ignore") return "";
  // `ignore`, `ignore[…`, `ignore-file…`; not prose such as `ignores`.
  if (rest.size() > 6 && !is_space(rest[6]) && rest[6] != '[' && rest[6] != '-') return "";
  std::string_view marker = comment.substr(at);
  while (!marker.empty() && is_space(marker.back())) marker.remove_suffix(1);
  constexpr size_t kShown = 60;
  // Cut on a character boundary: a comment in any language stays valid UTF-8 in every report.
  return shorten_utf8(marker, kShown);
}

class Lines {
 public:
  explicit Lines(std::vector<LineSuppression>& out) : out_(out) { out_.emplace_back(); }
  void newline() {
    out_.emplace_back();
    code_ = false;
  }
  void code() { code_ = true; }
  void comment(std::string_view text) {
    bool file_level = false, bare = false;
    auto patterns = parse_marker(text, file_level, bare);
    if (patterns.empty()) {
      if (const std::string marker = malformed_marker(text); !marker.empty()) out_.back().malformed = marker;
      return;
    }
    out_.back().patterns = std::move(patterns);
    out_.back().alone = !code_;
    out_.back().file_level = file_level;
    out_.back().bare = bare;
  }

 private:
  std::vector<LineSuppression>& out_;
  bool code_ = false;
};

std::vector<LineSuppression> python_comments(std::string_view t) {
  std::vector<LineSuppression> out;
  Lines lines(out);
  size_t i = 0;
  while (i < t.size()) {
    const char c = t[i];
    if (c == '\n') {
      lines.newline();
      ++i;
    } else if (c == '#') {
      size_t end = t.find('\n', i);
      if (end == std::string_view::npos) end = t.size();
      lines.comment(t.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '\'' || c == '"') {
      lines.code();
      const bool triple = t.substr(i, 3) == std::string(3, c);
      i += triple ? 3 : 1;
      while (i < t.size()) {
        const char d = t[i];
        if (d == '\\') {
          if (i + 1 < t.size() && t[i + 1] == '\n') {
            lines.newline();
            lines.code();
          }
          i += 2;
        } else if (triple && t.substr(i, 3) == std::string(3, c)) {
          i += 3;
          break;
        } else if (!triple && d == c) {
          ++i;
          break;
        } else if (d == '\n') {
          if (!triple) break;  // unterminated: the line ends the string
          lines.newline();
          lines.code();  // the next line continues the string: it holds no lone comment
          ++i;
        } else {
          ++i;
        }
      }
    } else {
      if (!is_space(c)) lines.code();
      ++i;
    }
  }
  return out;
}

std::vector<LineSuppression> cpp_comments(std::string_view t) {
  std::vector<LineSuppression> out;
  Lines lines(out);
  size_t i = 0;
  while (i < t.size()) {
    const char c = t[i];
    if (c == '\n') {
      lines.newline();
      ++i;
    } else if (t.substr(i, 2) == "//") {
      size_t end = t.find('\n', i);
      if (end == std::string_view::npos) end = t.size();
      lines.comment(t.substr(i + 2, end - i - 2));
      i = end;
    } else if (t.substr(i, 2) == "/*") {
      const size_t end = t.find("*/", i + 2);
      const size_t stop = end == std::string_view::npos ? t.size() : end + 2;
      for (size_t k = i; k < stop; ++k) {
        if (t[k] == '\n') lines.newline();
      }
      i = stop;
    } else if (c == '"') {
      lines.code();
      // A raw string literal: R"delim( ... )delim", with an optional u8/u/U/L prefix.
      bool raw = false;
      if (i > 0 && t[i - 1] == 'R') {
        size_t start = i - 1;
        while (start > 0 && is_word(t[start - 1])) --start;
        const std::string_view prefix = t.substr(start, i - 1 - start);
        raw = prefix.empty() || prefix == "u8" || prefix == "u" || prefix == "U" || prefix == "L";
      }
      const size_t open = raw ? t.find('(', i + 1) : std::string_view::npos;
      if (raw && open != std::string_view::npos && open - i - 1 <= 16) {
        const std::string close = ")" + std::string(t.substr(i + 1, open - i - 1)) + "\"";
        const size_t end = t.find(close, open + 1);
        const size_t stop = end == std::string_view::npos ? t.size() : end + close.size();
        for (size_t k = i; k < stop; ++k) {
          if (t[k] == '\n') {
            lines.newline();
            lines.code();
          }
        }
        i = stop;
        continue;
      }
      ++i;
      while (i < t.size() && t[i] != '"' && t[i] != '\n') i += t[i] == '\\' ? 2 : 1;
      if (i < t.size() && t[i] == '"') ++i;
    } else if (c == '\'') {
      lines.code();
      // A digit separator (1'000'000) is not a character literal.
      size_t start = i;
      while (start > 0 && (is_word(t[start - 1]) || t[start - 1] == '\'')) --start;
      if (start < i && t[start] >= '0' && t[start] <= '9') {
        ++i;
        continue;
      }
      ++i;
      while (i < t.size() && t[i] != '\'' && t[i] != '\n') i += t[i] == '\\' ? 2 : 1;
      if (i < t.size() && t[i] == '\'') ++i;
    } else {
      if (!is_space(c)) lines.code();
      ++i;
    }
  }
  return out;
}

// Which patterns of a file's comments suppressed something: [line][pattern].
using Uses = std::vector<std::vector<bool>>;

// Marks and returns whether a pattern of line `k` suppresses `rule`.
bool line_covers(const std::vector<LineSuppression>& lines, Uses& used, size_t k, const std::string& rule) {
  for (size_t p = 0; p < lines[k].patterns.size(); ++p) {
    if (suppression_matches({lines[k].patterns[p]}, rule)) {
      used[k][p] = true;
      return true;
    }
  }
  return false;
}

// Whether line `index` (0-based), the comment alone on the line above it, or a file-level
// comment suppresses `rule`; the pattern that does is marked used.
bool covered(const std::vector<LineSuppression>& lines, Uses& used, long index, bool same_block_above,
             const std::string& rule) {
  if (index >= 0 && index < static_cast<long>(lines.size())) {
    const auto k = static_cast<size_t>(index);
    if (!lines[k].file_level && line_covers(lines, used, k, rule)) return true;
    if (same_block_above && index > 0 && lines[k - 1].alone && !lines[k - 1].file_level &&
        line_covers(lines, used, k - 1, rule))
      return true;
  }
  for (size_t k = 0; k < lines.size(); ++k)
    if (lines[k].file_level && line_covers(lines, used, k, rule)) return true;
  return false;
}

bool matches_any(const std::string& pattern, const std::vector<std::string>& ids) {
  for (const std::string& id : ids)
    if (suppression_matches({pattern}, id)) return true;
  return false;
}

}  // namespace

std::vector<LineSuppression> suppression_comments(std::string_view text, CommentSyntax syntax) {
  return syntax == CommentSyntax::cpp ? cpp_comments(text) : python_comments(text);
}

CommentSyntax comment_syntax_of(const std::string& path) {
  return is_cpp_source(path) ? CommentSyntax::cpp : CommentSyntax::python;
}

bool suppression_matches(const std::vector<std::string>& patterns, const std::string& rule) {
  for (const std::string& p : patterns) {
    if (p == "*" || p == rule) return true;
    if (p.back() == '*' && rule.compare(0, p.size() - 1, p, 0, p.size() - 1) == 0) return true;
  }
  return false;
}

void apply_suppressions(const std::filesystem::path& root, ScanResult& result, uintmax_t max_file_size,
                        const SuppressionChecks& checks) {
  std::error_code ec;
  const bool single_file = std::filesystem::is_regular_file(std::filesystem::symlink_status(root, ec));
  const std::filesystem::path base = single_file ? root.parent_path() : root;
  std::vector<std::unique_ptr<IgnorePattern>> per_file;
  for (const auto& entry : checks.per_file_ignores) per_file.push_back(IgnorePattern::parse(entry.first, ""));
  const bool check_comments = !checks.known_rules.empty() || !checks.enabled_rules.empty();

  // Every file with findings, and (when comments are checked) every file walked: a suppression
  // in a file without findings may be unused too.
  std::set<std::string> paths;
  for (const Finding& f : result.findings) paths.insert(f.path);
  if (check_comments) paths.insert(result.files.begin(), result.files.end());

  std::vector<Finding> kept;
  kept.reserve(result.findings.size());
  size_t i = 0;
  for (const std::string& path : paths) {
    while (i < result.findings.size() && result.findings[i].path < path) kept.push_back(std::move(result.findings[i++]));
    size_t end = i;
    while (end < result.findings.size() && result.findings[end].path == path) ++end;
    // A path that could leave the root is never read (the walk does not produce one).
    const bool safe = !path.empty() && path.front() != '/' && path.find("..") == std::string::npos;
    ReadResult read;
    const bool replaced = checks.replaced_files && checks.replaced_files->count(path);
    if (replaced) read.bytes = checks.replaced_files->at(path);
    else if (safe) read = read_repository_file(base / path, max_file_size);
    std::vector<LineSuppression> lines;
    NotebookSource notebook;
    const bool is_notebook = path.ends_with(".ipynb");
    // Comments are text: a binary (an extension module's ELF file) holds bytes a compiler put
    // there, and a string in it that reads `# mpsready: ignore-file[*]` suppresses nothing.
    const bool text = read.bytes && !git_judges_binary(*read.bytes);
    if (text && read.bytes->find("mpsready:") != std::string::npos) {
      if (is_notebook) {
        NotebookResult nb = read_notebook(*read.bytes);
        if (nb.ok) {
          notebook = std::move(nb.source);
          lines = suppression_comments(notebook.python, CommentSyntax::python);
        }
      } else {
        lines = suppression_comments(*read.bytes, is_cpp_source(path) ? CommentSyntax::cpp : CommentSyntax::python);
      }
    }
    Uses used(lines.size());
    for (size_t k = 0; k < lines.size(); ++k) used[k].assign(lines[k].patterns.size(), false);
    std::map<std::pair<int, int>, long> notebook_line;  // (cell, line in cell) -> line of `python`
    for (size_t k = 0; k < notebook.cell_of_line.size() && k < notebook.line_in_cell.size(); ++k)
      notebook_line.emplace(std::make_pair(notebook.cell_of_line[k], notebook.line_in_cell[k]), static_cast<long>(k));
    for (; i < end; ++i) {
      Finding& f = result.findings[i];
      bool suppressed = false;
      if (!lines.empty()) {
        if (is_notebook) {
          const auto it = notebook_line.find({f.location.cell, f.location.line});
          if (it != notebook_line.end()) {
            const long k = it->second;
            // The line above counts only inside the same cell.
            const bool same_cell = k > 0 && notebook.cell_of_line[static_cast<size_t>(k - 1)] == f.location.cell;
            suppressed = covered(lines, used, k, same_cell, f.rule);
          }
        } else {
          suppressed = covered(lines, used, f.location.line - 1, true, f.rule);
        }
      }
      // The configuration's per-file ignores, after the comments (so a comment is not reported
      // unused because the configuration also covers its finding).
      for (size_t p = 0; !suppressed && p < per_file.size(); ++p)
        suppressed = per_file[p] && per_file[p]->matches(f.path, false) &&
                     suppression_matches(checks.per_file_ignores[p].second, f.rule);
      (suppressed ? result.suppressed : kept).push_back(std::move(f));
    }
    if (!check_comments) continue;
    for (size_t k = 0; k < lines.size(); ++k) {
      if (!lines[k].malformed.empty()) {
        SuppressionNote note{path, 0, static_cast<int>(k) + 1,
                             "`" + lines[k].malformed +
                                 "` suppresses nothing: name the rules, `mpsready: ignore[rule-id]`, or "
                                 "`ignore[*]` for every rule"};
        if (is_notebook && k < notebook.cell_of_line.size() && k < notebook.line_in_cell.size()) {
          note.cell = notebook.cell_of_line[k];
          note.line = notebook.line_in_cell[k];
        }
        result.suppression_notes.push_back(std::move(note));
      }
      for (size_t p = 0; p < lines[k].patterns.size(); ++p) {
        const std::string& pattern = lines[k].patterns[p];
        std::string message;
        const std::string marker = lines[k].file_level ? "ignore-file[" : "ignore[";
        const std::string shown = lines[k].bare ? "`mpsready: ignore`" : marker + pattern + "]";
        if (!checks.known_rules.empty() && !matches_any(pattern, checks.known_rules))
          message = "suppression " + marker + pattern + "] names no rule (see `mpsready rules list`)";
        else if (!used[k][p] && matches_any(pattern, checks.enabled_rules))
          message = "unused suppression " + shown + (lines[k].bare ? ": no finding " : ": no finding of it ") +
                    (lines[k].file_level ? "in this file" : lines[k].alone ? "on this line or the next" : "on this line") +
                    "; remove it";
        if (message.empty()) continue;
        SuppressionNote note{path, 0, static_cast<int>(k) + 1, message};
        if (is_notebook && k < notebook.cell_of_line.size() && k < notebook.line_in_cell.size()) {
          note.cell = notebook.cell_of_line[k];
          note.line = notebook.line_in_cell[k];
        }
        result.suppression_notes.push_back(std::move(note));
      }
    }
  }
  for (; i < result.findings.size(); ++i) kept.push_back(std::move(result.findings[i]));
  result.findings = std::move(kept);
  std::sort(result.suppressed.begin(), result.suppressed.end(), finding_less);
}

}  // namespace mpsready
