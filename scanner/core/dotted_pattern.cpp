#include "core/dotted_pattern.h"

#include <algorithm>

namespace mpsready {

bool dotted_pattern_matches(std::string_view pattern, std::string_view name) {
  if (pattern == "*") return true;
  if (name.empty()) return false;
  if (pattern.size() >= 2 && pattern.substr(pattern.size() - 2) == ".*") {
    const std::string_view prefix = pattern.substr(0, pattern.size() - 1);  // keeps the dot
    return name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix;
  }
  return pattern == name;
}

int dotted_pattern_specificity(std::string_view pattern) {
  if (pattern == "*") return 0;
  const bool wildcard = pattern.size() >= 2 && pattern.substr(pattern.size() - 2) == ".*";
  return static_cast<int>(pattern.size()) * 2 + (wildcard ? 0 : 1);
}

bool any_dotted_pattern_matches(const std::vector<std::string>& patterns, const std::string& name) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return dotted_pattern_matches(p, name); });
}

}  // namespace mpsready
