#pragma once
// What `mpsready fix` tells a person and a program: the verdict before and after, the sites fixed,
// and each site left with its reason (text), or every edit with its rule and range (JSON).
#include <ostream>
#include <string>

#include "fix/fix_engine.h"
#include "report/scan_report.h"

namespace mpsready {

// "partial -> mps-ready: 37 sites fixed in 5 files, 3 need a human", then one line per site left.
void write_fix_summary_text(std::ostream& out, const FixOutcome& outcome);
// The diff of every fixed file, in path order.
std::string fix_diff(const FixOutcome& outcome);
// The outcome as data for the Markdown comment and the HTML plan (ReportContext::fix).
FixDigest fix_digest(const FixOutcome& outcome);
void write_fix_json(std::ostream& out, const FixOutcome& outcome, const std::string& target_pytorch, bool written);

}  // namespace mpsready
