#pragma once
// The assessment: what the findings mean for this repository. It reads the findings of the front
// ends and repository passes and the repository model, and decides, once, each finding's
// effective impact, its component and whether it counts for the repository's verdict; then the
// verdicts and reasons. Reporters only print what it decided.
#include <map>
#include <string>

#include "core/impact.h"
#include "assess/verdict_funnel.h"
#include "engine/scanner.h"
#include "model/repo_model.h"
#include "rules/rule_set.h"

namespace mpsready {

struct AssessOptions {
  ModelConfig model;
  // What leaves the report before the verdict (a baseline, --diff, paths): assess/verdict_funnel.h.
  Funnel funnel;
};

// Replaces result.findings with the assessed findings (same order), less what the funnel leaves
// out, and result.summary with the verdicts; result.suppressed gets the same treatment so that
// reports can show it consistently.
void assess(ScanResult& result, const RuleSet& rules, const AssessOptions& options);

}  // namespace mpsready
