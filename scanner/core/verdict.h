#pragma once
// The verdict and the numbers behind it, computed from the findings alone.
#include <map>
#include <string>
#include <vector>

#include "core/finding.h"
#include "core/impact.h"

namespace mpsready {

// One reason: the sites of one rule at the impact that decided the verdict.
struct Reason {
  std::string rule;
  Impact impact = Impact::info;
  size_t count = 0;
  std::string text;                    // the first site's message
  std::vector<std::string> locations;  // "path:line" (or "path:cell N:line"), first few
};

struct Effort {
  size_t sites = 0;       // blocker and portable findings: places to change
  size_t mechanical = 0;  // of which a mechanical edit fixes
  size_t manual = 0;      // the rest: a rewrite or a replacement dependency
};

struct Summary {
  Verdict verdict = Verdict::mps_ready;
  std::vector<Reason> reasons;
  std::map<std::string, size_t> by_impact;    // every impact, zero included
  std::map<std::string, size_t> by_category;  // categories that occur
  size_t guarded = 0;
  Effort effort;
};

Summary summarize(const std::vector<Finding>& sorted_findings);
std::string location_label(const Finding& finding);

}  // namespace mpsready
