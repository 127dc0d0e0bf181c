#pragma once
// Dotted-name patterns used by rules and tables: "torch.cuda.synchronize" (exact),
// "torch.cuda.*" (any name strictly below torch.cuda) and "*" (anything).
#include <string>
#include <string_view>
#include <vector>

namespace mpsready {

bool dotted_pattern_matches(std::string_view pattern, std::string_view name);

// Whether any of `patterns` matches `name`.
bool any_dotted_pattern_matches(const std::vector<std::string>& patterns, const std::string& name);
// Higher for more specific patterns; exact beats a wildcard of the same length.
int dotted_pattern_specificity(std::string_view pattern);

}  // namespace mpsready
