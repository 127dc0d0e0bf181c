#pragma once
// Bounds on a rule's tree-sitter query, checked before it is compiled. Tree-sitter's query
// compiler analyses every pattern against the grammar, and that analysis grows steeply with
// quantified siblings and nesting: in tree-sitter 0.20, 60 optional wildcards under one parent
// (`(block (_)? (_)? ...)`, 300 bytes) take about 10 s to compile, and it cannot be interrupted.
// Rule files are user input, so a query beyond these bounds is refused with a message instead.
#include <cstddef>
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

// "" when `source` is within `limits`; otherwise what is too large, with its line, and the limit.
std::string check_query_limits(std::string_view source, const QueryLimits& limits = {});

}  // namespace mpsready
