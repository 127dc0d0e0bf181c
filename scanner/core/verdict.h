#pragma once
// The verdict and the numbers behind it, computed from assessed findings: each finding already
// carries its effective impact, its component and whether it counts for the repository.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"
#include "core/impact.h"
#include "core/repo_facts.h"

namespace mpsready {

// One reason: the sites of one rule at the impact that decided the verdict.
struct Reason {
  std::string rule;
  Impact impact = Impact::info;
  size_t count = 0;
  std::string text;                    // the first site's message
  std::vector<std::string> locations;  // "path:line" (or "path:cell N:line"), first few
  std::string component;               // the first site's component
  std::string context;                 // how the core reaches the first site, when known
};

// Effort counts work, not sites: a CUDA-only source file is one rewrite however many kernels,
// includes and launches it holds; an extension's Python declaration is part of that rewrite.
struct Effort {
  size_t sites = 0;       // blocker and portable findings: places to change
  size_t mechanical = 0;  // of which a mechanical edit fixes
  size_t manual = 0;      // the rest: a rewrite or a replacement dependency
  size_t rewrite_files = 0;  // C++/CUDA files with blocker or portable findings: one rewrite each
  double hours = 0;          // the estimate, under the assumptions in docs/json-output.md
};

// A component as the model sees it, for the summary to list even when it has no finding.
struct ComponentInfo {
  std::string name;
  std::string role;
  bool peripheral = false;
};

struct ComponentSummary {
  std::string name;
  std::string role;
  Verdict verdict = Verdict::mps_ready;
  std::map<std::string, size_t> by_impact;
  std::string reason;  // the deciding rule and first site, when not mps-ready
  // Findings of a core component that do not count (optional features, paths behind guards,
  // `__main__` demos): what they would mean on their own.
  size_t outside_core = 0;
  Verdict outside_core_verdict = Verdict::mps_ready;
};

struct Summary {
  Verdict verdict = Verdict::mps_ready;
  std::vector<Reason> reasons;
  // The portable sites a core that selects MPS leaves in a few corners (assess/mps_supported_core.h),
  // grouped by rule like the reasons: listed beside an `mps-ready` verdict they did not decide.
  std::vector<Reason> gaps;
  std::map<std::string, size_t> by_impact;    // every impact, zero included
  std::map<std::string, size_t> by_category;  // categories that occur
  size_t guarded = 0;
  // The blockers that count (in the core): what keeps the repository on Linux, and their rules
  // (sorted). A blocker in tests/ or behind an optional path is in by_impact, not here.
  size_t core_blockers = 0;
  std::vector<std::string> core_blocker_rules;
  size_t outside_core = 0;  // findings that do not count for the repository (tests, examples, ...)
  Effort effort;
  std::vector<ComponentSummary> components;
  bool collection = false;  // a collection of independent examples: the verdict combines them
  std::vector<EvidenceFact> evidence;
};

struct SummaryContext {
  std::vector<ComponentInfo> components;
  bool collection = false;
  std::vector<EvidenceFact> evidence;
};

Summary summarize(const std::vector<Finding>& sorted_findings, const SummaryContext& context = {});

// Whether a finding is one of the sites that decided `summary`'s verdict: it counts (in the core,
// no gap) and has the impact of the verdict's reasons. Reports list these first; none decides an
// `mps-ready` verdict.
bool decides_verdict(const Finding& finding, const Summary& summary);
// Whether a finding counts for the repository's verdict at all (in the core and no gap).
bool counts_for_verdict(const Finding& finding);
// What the findings that do not count are, in every report's words: the kinds of code outside the
// core, and the code a Mac does not run.
inline constexpr std::string_view kNotCountedKinds =
    "tests, examples, tools, optional features, code a Mac does not run";

}  // namespace mpsready
