#pragma once
// Applies sorted, non-overlapping edits of one file to its text.
#include <string>
#include <string_view>
#include <vector>

#include "fix/edit.h"

namespace mpsready {

// `edits` belong to one file, sorted by start, none overlapping (resolve_overlaps).
std::string apply_edits(std::string_view text, const std::vector<Edit>& edits);

}  // namespace mpsready
