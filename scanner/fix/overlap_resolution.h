#pragma once
// Two fixes of one file must never touch the same bytes: applying both would depend on their
// order, and a second run would fix again what the first left half done.
#include <vector>

#include "fix/edit.h"

namespace mpsready {

// Sorts `edits`, merges exact duplicates (one site found twice, rewritten the same way), and
// moves every edit that overlaps another into `dropped` with the reason.
void resolve_overlaps(std::vector<Edit>& edits, std::vector<LeftSite>& dropped);

}  // namespace mpsready
