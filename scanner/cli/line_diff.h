#pragma once
// A line diff computed in this process (Myers' O(ND) algorithm), so that diff mode never asks git
// to compare files: `git diff` against the work tree would run the checkout's clean filters and
// honour its `.gitattributes` (`-diff` prints "Binary files differ" and hides every line).
#include <string_view>
#include <vector>

namespace mpsready {

// Lines of `text`, split at '\n' (a last line without one counts too; a '\r' before it is part of
// the line).
std::vector<std::string_view> split_lines(std::string_view text);

// Which lines of `after` (0-based indexes) are not part of a longest common subsequence with
// `before`: the added or changed lines. When the two differ by more than `max_edits` lines
// between their common first and last lines, every line in between counts as added (more is
// listed, never less), which bounds time and memory on a rewritten file.
std::vector<bool> added_lines(const std::vector<std::string_view>& before, const std::vector<std::string_view>& after,
                              size_t max_edits = 3000);

}  // namespace mpsready
