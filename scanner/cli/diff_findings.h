#pragma once
// Which findings of the work tree a change adds, by content rather than by line number: a finding
// is old when BASE has one with the same rule, path, source line (whitespace normalised) and
// enclosing function, and the same impact, guard and weight. So a finding whose guard was deleted
// (`if torch.cuda.is_available():` made `if True:`), whose fallback was removed, or whose impact
// changed is added even though its own line did not change; and among identical sites, those on
// lines the change added are the new ones (a notebook cell inserted before an identical one).
#include <string>
#include <vector>

#include "cli/diff_files.h"
#include "core/finding.h"

namespace mpsready {

struct AddedFinding {
  size_t index = 0;  // into the work tree's findings
  // How the same site was at BASE when only its state changed ("guarded, info"); "" for a new site.
  std::string was;
};

// `before` and `after` are sorted (finding_less); the result is in the order of `after`.
std::vector<AddedFinding> added_findings(const std::vector<Finding>& before, const std::vector<Finding>& after,
                                         DiffFiles& files);

}  // namespace mpsready
