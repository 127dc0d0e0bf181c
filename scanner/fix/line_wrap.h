#pragma once
// A rewritten expression too long for the project's limit, broken the way a person writes a long
// device choice: before each `else` of a chain of conditional expressions, continued under the
// bracket that holds the chain.
#include <optional>
#include <string>
#include <string_view>

namespace mpsready {

// `replacement`, which starts after `line_prefix` (the text of its line before it), broken before
// each ` else ` of its outermost chain of conditional expressions; the chain is put in
// parentheses when no bracket holds it (in the replacement, or left open on the line before it).
// nullopt when it has no such chain.
std::optional<std::string> wrapped_at_else(std::string_view line_prefix, std::string_view replacement);

}  // namespace mpsready
