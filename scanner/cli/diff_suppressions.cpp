#include "cli/diff_suppressions.h"

#include <algorithm>
#include <map>

#include "pipeline/suppressions.h"
#include "report/fingerprint.h"

namespace mpsready {

namespace {

struct Comment {
  size_t line = 0;  // 0-based
  std::string key;  // what it says, and the line it is on
  const LineSuppression* suppression = nullptr;
};

std::vector<Comment> comments_of(const std::vector<LineSuppression>& lines, const DiffSource& source) {
  std::vector<Comment> out;
  for (size_t k = 0; k < lines.size(); ++k) {
    if (lines[k].patterns.empty()) continue;
    std::string key = lines[k].file_level ? "file" : "line";
    for (const std::string& p : lines[k].patterns) key += '\0' + p;
    key += '\0';
    if (k < source.lines.size()) key += normalized_snippet(source.lines[k]);
    out.push_back({k, std::move(key), &lines[k]});
  }
  return out;
}

}  // namespace

std::vector<AddedSuppression> added_suppressions(const std::vector<std::string>& changed_files, DiffFiles& files,
                                                 const std::set<std::string>& scanned,
                                                 const std::vector<std::string>& known_rules) {
  const auto names_a_rule = [&](const std::vector<std::string>& patterns) {
    for (const std::string& id : known_rules)
      if (suppression_matches(patterns, id)) return true;
    return false;
  };
  std::vector<AddedSuppression> out;
  for (const std::string& path : changed_files) {
    if (!scanned.count(path)) continue;
    const DiffFiles::File& file = files.file(path);
    if (!file.after.exists || file.after.text.find("mpsready:") == std::string::npos) continue;
    const CommentSyntax syntax = file.after.notebook ? CommentSyntax::python : comment_syntax_of(path);
    const std::vector<LineSuppression> now_lines = suppression_comments(file.after.text, syntax);
    const std::vector<LineSuppression> then_lines =
        file.before.exists ? suppression_comments(file.before.text, syntax) : std::vector<LineSuppression>{};
    std::map<std::string, size_t> then;
    for (const Comment& c : comments_of(then_lines, file.before)) ++then[c.key];
    const std::vector<Comment> now = comments_of(now_lines, file.after);
    std::vector<bool> added(now.size(), false);
    // Comments on unchanged lines take BASE's first, as findings do.
    for (const bool added_line : {false, true}) {
      for (size_t i = 0; i < now.size(); ++i) {
        const bool on_added = now[i].line < file.added.size() && file.added[now[i].line];
        if (on_added != added_line) continue;
        size_t& left = then[now[i].key];
        if (left > 0) --left;
        else added[i] = true;
      }
    }
    for (size_t i = 0; i < now.size(); ++i) {
      if (!added[i] || !names_a_rule(now[i].suppression->patterns)) continue;
      AddedSuppression s;
      s.path = path;
      std::tie(s.cell, s.line) = file.after.location_of(now[i].line);
      s.rules = now[i].suppression->patterns;
      s.file_level = now[i].suppression->file_level;
      s.every_rule = std::find(s.rules.begin(), s.rules.end(), "*") != s.rules.end();
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace mpsready
