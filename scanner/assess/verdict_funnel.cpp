#include "assess/verdict_funnel.h"

namespace mpsready {

std::string_view to_string(Removal removal) {
  switch (removal) {
    case Removal::baseline: return "baseline";
    case Removal::outside_diff: return "outside-diff";
    case Removal::outside_paths: return "outside-paths";
  }
  return "";
}

void conclude(ScanResult& result, const Funnel& funnel) {
  result.removed.clear();
  FunnelDecision decision;
  if (funnel) decision = funnel(result);
  std::vector<Finding> whole;  // kept only when the tree's verdict is still needed
  if (!decision.removed.empty()) {
    std::vector<Finding> kept;
    for (size_t i = 0; i < result.findings.size(); ++i) {
      const std::optional<Removal> why = i < decision.removed.size() ? decision.removed[i] : std::nullopt;
      if (why) ++result.removed[std::string(to_string(*why))];
      if (!why) kept.push_back(result.findings[i]);
    }
    // What the filters hid is still the tree's: its verdict is reported beside the filtered one.
    if (!result.removed.empty()) whole = std::move(result.findings);
    result.findings = std::move(kept);
  }
  result.summary = summarize(result.findings, result.summary_context);
  result.tree_verdict = result.summary.verdict;
  if (whole.empty()) return;
  // Findings left out: the tree's own verdict, which the reports give beside the filtered one (a
  // baseline that hides every finding of a partial repository says so), and, with --diff, the floor
  // below and the "before → after" line.
  result.tree_verdict = summarize(whole, result.summary_context).verdict;
  if (decision.base_verdict && result.tree_verdict > *decision.base_verdict && result.tree_verdict > result.summary.verdict)
    result.summary.verdict = result.tree_verdict;
}

}  // namespace mpsready
