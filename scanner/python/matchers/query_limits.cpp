#include "python/matchers/query_limits.h"

#include <cctype>

namespace mpsready {

namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '?' || c == '!';
}

}  // namespace

std::string check_query_limits(std::string_view source, const QueryLimits& limits) {
  if (source.size() > limits.max_bytes)
    return "the query has " + std::to_string(source.size()) + " bytes, more than the " +
           std::to_string(limits.max_bytes) + " a rule's query may have";
  size_t line = 1, depth = 0, patterns = 0, quantifiers = 0, in_pattern = 0;
  const auto where = [&] { return "line " + std::to_string(line) + ": "; };
  for (size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\n') {
      ++line;
    } else if (c == ';') {  // a comment runs to the end of the line
      while (i + 1 < source.size() && source[i + 1] != '\n') ++i;
    } else if (c == '"') {  // a string: its characters are not syntax
      for (++i; i < source.size() && source[i] != '"'; ++i) {
        if (source[i] == '\\') ++i;
        else if (source[i] == '\n') ++line;
      }
    } else if (c == '#' || c == '@') {  // predicate and capture names may contain `?` and `!`
      while (i + 1 < source.size() && is_name_char(source[i + 1])) ++i;
    } else if (c == '(' || c == '[') {
      if (depth == 0) {
        in_pattern = 0;
        if (++patterns > limits.max_patterns)
          return where() + "the query has more than " + std::to_string(limits.max_patterns) + " patterns";
      }
      if (++depth > limits.max_depth)
        return where() + "patterns nested more than " + std::to_string(limits.max_depth) + " levels deep";
    } else if (c == ')' || c == ']') {
      if (depth > 0) --depth;  // unbalanced brackets are left to the query compiler's own message
    } else if (c == '?' || c == '*' || c == '+') {
      if (++in_pattern > limits.max_quantifiers_per_pattern)
        return where() + "a pattern with more than " + std::to_string(limits.max_quantifiers_per_pattern) +
               " quantifiers (?, *, +)";
      if (++quantifiers > limits.max_quantifiers)
        return where() + "the query has more than " + std::to_string(limits.max_quantifiers) + " quantifiers (?, *, +)";
    }
  }
  return {};
}

}  // namespace mpsready
