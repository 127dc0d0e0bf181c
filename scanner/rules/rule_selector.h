#pragma once
// How `--select`, `--ignore` and the configuration's lists name rules: an id, a prefix with a
// trailing `*` (`py-cuda-*`), or `ALL` (every rule, as in ruff). A selector that names no rule is
// an error that says so, with the closest id where one is near ("did you mean").
#include <optional>
#include <string>
#include <vector>

namespace mpsready {

bool selector_matches(const std::string& selector, const std::string& id);

// The id of `ids` closest to `selector` (its `*` aside) by edit distance, when it is close enough
// to be a typo: at most a third of the selector's length, and never more than 4 edits.
std::optional<std::string> closest_rule_id(const std::string& selector, const std::vector<std::string>& ids);

// `no rule matches "py-nvidia-only-imprt"; did you mean py-nvidia-only-import? (see `mpsready
// rules list`)`, for a selector that matches none of `ids`; "" when it matches one.
std::string unknown_selector_error(const std::string& selector, const std::vector<std::string>& ids);

}  // namespace mpsready
