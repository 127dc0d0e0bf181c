#pragma once
// A unified diff (git apply / patch -p1) of one file from its text and the edits made to it.
// Built from the edits, not from a general line diff: linear in the file, and deterministic.
#include <string>
#include <string_view>
#include <vector>

#include "fix/edit.h"

namespace mpsready {

// `edits` belong to `path`, sorted and non-overlapping. Three lines of context; headers
// `--- a/PATH` / `+++ b/PATH`. Empty when there are no edits.
std::string unified_diff(const std::string& path, std::string_view text, const std::vector<Edit>& edits);

}  // namespace mpsready
