#include "rules/rule_selector.h"

#include <algorithm>

namespace mpsready {

bool selector_matches(const std::string& selector, const std::string& id) {
  if (selector == "ALL") return true;
  if (!selector.empty() && selector.back() == '*')
    return id.compare(0, selector.size() - 1, selector, 0, selector.size() - 1) == 0;
  return selector == id;
}

namespace {

// Levenshtein distance over bytes, two rows; ids and selectors are short ASCII words, and the
// selector is cut so that a hostile argument costs nothing.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> before(b.size() + 1), row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) before[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      row[j] = std::min({before[j] + 1, row[j - 1] + 1, before[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(before, row);
  }
  return before[b.size()];
}

}  // namespace

std::optional<std::string> closest_rule_id(const std::string& selector, const std::vector<std::string>& ids) {
  std::string word = selector;
  if (!word.empty() && word.back() == '*') word.pop_back();
  if (word.empty() || word.size() > 128) return std::nullopt;
  const size_t limit = std::min<size_t>(4, std::max<size_t>(1, word.size() / 3));
  std::optional<std::string> best;
  size_t best_distance = limit + 1;
  for (const std::string& id : ids) {
    // A prefix is compared with the id's start of the same length.
    const std::string target = selector.back() == '*' ? id.substr(0, word.size()) : id;
    const size_t d = edit_distance(word, target);
    if (d < best_distance) {
      best_distance = d;
      best = selector.back() == '*' ? target + "*" : id;
    }
  }
  return best;
}

std::string unknown_selector_error(const std::string& selector, const std::vector<std::string>& ids) {
  if (std::any_of(ids.begin(), ids.end(), [&](const std::string& id) { return selector_matches(selector, id); }))
    return "";
  std::string text = "no rule matches \"" + selector + "\"";
  if (const auto near = closest_rule_id(selector, ids)) text += "; did you mean " + *near + "?";
  return text + " (see `mpsready rules list`)";
}

}  // namespace mpsready
