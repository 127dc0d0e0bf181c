#pragma once
// Bounds on a rule's tree-sitter query, checked before it is compiled. Tree-sitter's query
// compiler analyses every pattern against the grammar, and that analysis grows steeply with
// quantified siblings and nesting: in tree-sitter 0.20, 60 optional wildcards under one parent
// (`(block (_)? (_)? ...)`, 300 bytes) take about 10 s to compile, and it cannot be interrupted.
// Rule files are user input, so a query beyond these bounds is refused with a message instead.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace mpsready {

struct QueryLimits {
  size_t max_bytes = 16 * 1024;         // the largest bundled query is under 5 KiB
  size_t max_patterns = 64;             // top-level patterns
  size_t max_depth = 16;                // nesting of ( and [
  size_t max_quantifiers_per_pattern = 12;  // ?, * and + within one top-level pattern
  size_t max_quantifiers = 64;          // in the whole query
};

// Visits the characters of a query that are syntax, skipping comments (`;` to the end of the
// line), strings and the names after `#` and `@`; newlines only count lines. `visit(i, line)`
// returns the index of the last character it consumed (i for one), or npos to stop.
void for_each_syntax_char(std::string_view source, const std::function<size_t(size_t i, size_t line)>& visit);

// "" when `source` is within `limits`; otherwise what is too large, with its line, and the limit.
std::string check_query_limits(std::string_view source, const QueryLimits& limits = {});

}  // namespace mpsready
