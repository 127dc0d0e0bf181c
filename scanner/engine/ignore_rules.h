#pragma once
// .gitignore semantics (and --exclude, which uses the same syntax anchored at the root):
// `#` comments, `!` negation, trailing `/` for directories, a `/` inside the pattern anchors it
// to the file's directory, `*`, `?`, `[...]` and `**`. Patterns become RE2 regexes, so matching
// is linear in the path length whatever the pattern.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <re2/re2.h>
#include <re2/set.h>

namespace mpsready {

class IgnorePattern {
 public:
  // `base` is the directory (relative to the root, "" for the root) the pattern is relative to.
  static std::unique_ptr<IgnorePattern> parse(std::string_view line, const std::string& base);
  // `path` relative to the root; true/false when the pattern matches, with negated() telling
  // whether a match un-ignores.
  bool matches(std::string_view path, bool is_dir) const;
  bool negated() const { return negated_; }
  bool dir_only() const { return dir_only_; }
  const std::string& regex() const { return regex_->pattern(); }

 private:
  std::unique_ptr<RE2> regex_;
  bool negated_ = false;
  bool dir_only_ = false;
};

// The patterns of one directory's .gitignore, linked to those of its parents.
class IgnoreList {
 public:
  IgnoreList(std::shared_ptr<const IgnoreList> parent, std::vector<std::unique_ptr<IgnorePattern>> patterns);
  static std::vector<std::unique_ptr<IgnorePattern>> parse_file(std::string_view text, const std::string& base);
  // The last matching pattern decides, deeper .gitignore files after shallower ones.
  bool ignored(std::string_view path, bool is_dir) const;

 private:
  // The last pattern of this list that matches, or null.
  const IgnorePattern* last_match(std::string_view path, bool is_dir) const;

  std::shared_ptr<const IgnoreList> parent_;
  std::vector<std::unique_ptr<IgnorePattern>> patterns_;
  // All patterns in one automaton: a large .gitignore (hundreds of lines) costs one match per
  // path instead of one per pattern. Null when it could not be built; then patterns match alone.
  std::unique_ptr<RE2::Set> set_;
};

}  // namespace mpsready
