#include "python/matchers/query_limits.h"

#include <cctype>

namespace mpsready {

namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '?' || c == '!';
}

}  // namespace

void for_each_syntax_char(std::string_view source, const std::function<size_t(size_t, size_t)>& visit) {
  size_t line = 1;
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
    } else {
      i = visit(i, line);
      if (i == std::string_view::npos) return;
    }
  }
}

std::string check_query_limits(std::string_view source, const QueryLimits& limits) {
  if (source.size() > limits.max_bytes)
    return "the query has " + std::to_string(source.size()) + " bytes, more than the " +
           std::to_string(limits.max_bytes) + " a rule's query may have";
  size_t depth = 0, patterns = 0, quantifiers = 0, in_pattern = 0;
  std::string problem;
  for_each_syntax_char(source, [&](size_t i, size_t line) -> size_t {
    const auto fail = [&](const std::string& what) {
      problem = "line " + std::to_string(line) + ": " + what;
      return std::string_view::npos;
    };
    const char c = source[i];
    if (c == '(' || c == '[') {
      if (depth == 0) {
        in_pattern = 0;
        if (++patterns > limits.max_patterns)
          return fail("the query has more than " + std::to_string(limits.max_patterns) + " patterns");
      }
      if (++depth > limits.max_depth)
        return fail("patterns nested more than " + std::to_string(limits.max_depth) + " levels deep");
    } else if (c == ')' || c == ']') {
      if (depth > 0) --depth;  // unbalanced brackets are left to the query compiler's own message
    } else if (c == '?' || c == '*' || c == '+') {
      if (++in_pattern > limits.max_quantifiers_per_pattern)
        return fail("a pattern with more than " + std::to_string(limits.max_quantifiers_per_pattern) +
                    " quantifiers (?, *, +)");
      if (++quantifiers > limits.max_quantifiers)
        return fail("the query has more than " + std::to_string(limits.max_quantifiers) + " quantifiers (?, *, +)");
    }
    return i;
  });
  return problem;
}

}  // namespace mpsready
