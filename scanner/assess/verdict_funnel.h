#pragma once
// The last step of the assessment: the filters that take assessed findings out of the report
// (a baseline, `--diff`, the paths given on the command line), each removal counted by its
// cause, then the verdict, computed once from what is left. Suppression comments act before the
// assessment (pipeline/suppressions.h) and keep what they removed in ScanResult::suppressed.
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "core/impact.h"
#include "engine/scanner.h"

namespace mpsready {

// Why a finding left the report, in the order the causes are tried (a finding the baseline knows
// counts as baselined even when the diff or the paths would also leave it out).
enum class Removal { baseline, outside_diff, outside_paths };
std::string_view to_string(Removal removal);

struct FunnelDecision {
  // Per finding of the assessed result (same order); empty: every finding stays.
  std::vector<std::optional<Removal>> removed;
  // --diff: BASE's verdict. A change that makes the whole tree worse is never reported better
  // than the tree, even when no finding lands on a line it changed (a deleted guard, a file the
  // model now reaches): the verdict is then at least the tree's.
  std::optional<Verdict> base_verdict;
};

// Decides, from the assessed findings (their impacts final), what leaves the report.
using Funnel = std::function<FunnelDecision(const ScanResult&)>;

// Applies `funnel` (none: nothing is removed), fills result.removed and result.tree_verdict (the
// verdict of every assessed finding, the removed ones included), and
// sets result.summary: the only call of summarize() in a scan.
void conclude(ScanResult& result, const Funnel& funnel);

}  // namespace mpsready
