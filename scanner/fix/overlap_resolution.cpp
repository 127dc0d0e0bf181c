#include "fix/overlap_resolution.h"

#include <algorithm>

namespace mpsready {

void resolve_overlaps(std::vector<Edit>& edits, std::vector<LeftSite>& dropped) {
  std::sort(edits.begin(), edits.end(), edit_less);
  std::vector<Edit> unique;
  for (Edit& e : edits) {
    if (!unique.empty() && unique.back().path == e.path && unique.back().start == e.start &&
        unique.back().end == e.end && unique.back().replacement == e.replacement)
      continue;
    unique.push_back(std::move(e));
  }
  // An edit overlaps another when it starts before the furthest end seen so far in its file
  // (spans nest: `.cuda()` on a receiver that has its own `.cuda()`).
  std::vector<bool> overlaps(unique.size(), false);
  size_t group_first = 0;
  uint32_t group_end = 0;
  for (size_t i = 0; i < unique.size(); ++i) {
    const bool same_file = i > 0 && unique[i].path == unique[group_first].path;
    if (same_file && unique[i].start < group_end) {
      for (size_t j = group_first; j <= i; ++j) overlaps[j] = true;
      group_end = std::max(group_end, unique[i].end);
    } else {
      group_first = i;
      group_end = unique[i].end;
    }
  }
  std::vector<Edit> kept;
  for (size_t i = 0; i < unique.size(); ++i) {
    if (!overlaps[i]) {
      kept.push_back(std::move(unique[i]));
      continue;
    }
    dropped.push_back({unique[i].path, unique[i].rule, unique[i].location,
                       "its fix overlaps another fix on the same code; fix one by hand and run again"});
  }
  edits = std::move(kept);
}

}  // namespace mpsready
