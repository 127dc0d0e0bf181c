#include "engine/ignore_rules.h"

#include <algorithm>
#include <functional>

namespace mpsready {
namespace {

// Translates one glob into a regex over paths relative to the root.
std::string glob_to_regex(std::string_view glob) {
  std::string out;
  for (size_t i = 0; i < glob.size(); ++i) {
    const char c = glob[i];
    if (c == '*') {
      if (i + 1 < glob.size() && glob[i + 1] == '*') {
        const bool slash_after = i + 2 < glob.size() && glob[i + 2] == '/';
        if (slash_after) {
          out += "(?:.*/)?";  // "**/" : zero or more directories
          i += 2;
        } else {
          out += ".*";  // "/**" or a bare "**"
          i += 1;
        }
      } else {
        out += "[^/]*";
      }
    } else if (c == '?') {
      out += "[^/]";
    } else if (c == '[') {
      const size_t close = glob.find(']', i + 1);
      if (close == std::string_view::npos) {
        out += "\\[";
        continue;
      }
      std::string_view body = glob.substr(i + 1, close - i - 1);
      out += '[';
      if (!body.empty() && (body[0] == '!' || body[0] == '^')) {
        out += '^';
        body.remove_prefix(1);
      }
      for (char b : body) {
        if (b == '\\' || b == ']' || b == '[') out += '\\';
        out += b;
      }
      out += ']';
      i = close;
    } else if (c == '\\' && i + 1 < glob.size()) {
      out += RE2::QuoteMeta(std::string(1, glob[++i]));
    } else {
      out += RE2::QuoteMeta(std::string(1, c));
    }
  }
  return out;
}

}  // namespace

std::unique_ptr<IgnorePattern> IgnorePattern::parse(std::string_view line, const std::string& base) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // Trailing spaces are ignored unless escaped.
  while (!line.empty() && line.back() == ' ' && !(line.size() >= 2 && line[line.size() - 2] == '\\'))
    line.remove_suffix(1);
  if (line.empty() || line[0] == '#') return nullptr;
  auto pattern = std::unique_ptr<IgnorePattern>(new IgnorePattern());
  if (line[0] == '!') {
    pattern->negated_ = true;
    line.remove_prefix(1);
  } else if (line.size() >= 2 && line[0] == '\\' && (line[1] == '#' || line[1] == '!')) {
    line.remove_prefix(1);
  }
  if (!line.empty() && line.back() == '/') {
    pattern->dir_only_ = true;
    line.remove_suffix(1);
  }
  if (line.empty()) return nullptr;
  const bool anchored = line.find('/') != std::string_view::npos;
  if (line[0] == '/') line.remove_prefix(1);
  std::string prefix = base.empty() ? "" : RE2::QuoteMeta(base) + "/";
  std::string regex = "^" + prefix + (anchored ? "" : "(?:.*/)?") + glob_to_regex(line) + "$";
  pattern->regex_ = std::make_unique<RE2>(regex, RE2::Quiet);
  if (!pattern->regex_->ok()) return nullptr;
  return pattern;
}

bool IgnorePattern::matches(std::string_view path, bool is_dir) const {
  if (dir_only_ && !is_dir) return false;
  return RE2::FullMatch(path, *regex_);
}

std::vector<std::unique_ptr<IgnorePattern>> IgnoreList::parse_file(std::string_view text,
                                                                   const std::string& base) {
  std::vector<std::unique_ptr<IgnorePattern>> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (auto p = IgnorePattern::parse(text.substr(start, end - start), base)) out.push_back(std::move(p));
    start = end + 1;
  }
  return out;
}

IgnoreList::IgnoreList(std::shared_ptr<const IgnoreList> parent, std::vector<std::unique_ptr<IgnorePattern>> patterns)
    : parent_(std::move(parent)), patterns_(std::move(patterns)) {
  if (patterns_.size() < 2) return;
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(32 << 20);
  auto set = std::make_unique<RE2::Set>(options, RE2::UNANCHORED);
  for (size_t i = 0; i < patterns_.size(); ++i)
    if (set->Add(patterns_[i]->regex(), nullptr) != static_cast<int>(i)) return;
  if (set->Compile()) set_ = std::move(set);
}

const IgnorePattern* IgnoreList::last_match(std::string_view path, bool is_dir) const {
  if (set_) {
    thread_local std::vector<int> hits;  // asked once per path and list: keep its capacity
    hits.clear();
    RE2::Set::ErrorInfo error{};
    const bool any = set_->Match(path, &hits, &error);
    if (error.kind == RE2::Set::kNoError) {
      if (!any) return nullptr;
      std::sort(hits.begin(), hits.end(), std::greater<>());
      for (int i : hits)
        if (!patterns_[static_cast<size_t>(i)]->dir_only() || is_dir) return patterns_[static_cast<size_t>(i)].get();
      return nullptr;
    }
    // The automaton ran out of memory on this path: match pattern by pattern below.
  }
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it)
    if ((*it)->matches(path, is_dir)) return it->get();
  return nullptr;
}

bool IgnoreList::ignored(std::string_view path, bool is_dir) const {
  // Collect the chain root-first without recursion; the deepest list with a match decides.
  std::vector<const IgnoreList*> chain;
  for (const IgnoreList* list = this; list; list = list->parent_.get()) chain.push_back(list);
  for (const IgnoreList* list : chain)
    if (const IgnorePattern* pattern = list->last_match(path, is_dir)) return !pattern->negated();
  return false;
}

}  // namespace mpsready
