#pragma once
// Whether rewritten Python still parses: a fix never hands back code that does not.
#include <string_view>

namespace mpsready {

// True when tree-sitter parses `text` without an error or missing node.
bool python_parses(std::string_view text);

}  // namespace mpsready
