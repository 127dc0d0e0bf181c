#pragma once
// The content of a Python string literal as rules see it: prefix and quotes removed, each
// f-string replacement field replaced by "{}", implicit concatenations joined.
#include <optional>
#include <string>
#include <string_view>

#include <tree_sitter/api.h>

namespace mpsready {

// nullopt when `node` is not a string or concatenated_string.
std::optional<std::string> string_literal_content(std::string_view source, TSNode node);

}  // namespace mpsready
