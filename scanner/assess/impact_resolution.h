#pragma once
// The only code that decides a finding's impact. Every stage that can change it calls one of the
// two functions below; README "How the verdict is decided" lists the stages in this order:
//
// 1. The rule (its impact as the configuration rewrote it at load, rules/rule.h).
// 2. The site, as its front end or repository pass saw it (SiteContext): a table record's or a
//    matcher's own impact replaces the rule's, unless the configuration set the rule's impact;
//    then a local guard lowers it (to the record's, matcher's or rule's guarded impact, else one
//    level); then ceilings bound it (a matcher's cap, a requirement's platform marker or
//    optional group). `site_impact` computes this, once per site.
// 3. What the repository makes of the site (ImpactChange): the model's reach, the Mac's path
//    through the call graph, an extension's CPU build, a requirement's importers. `change_impact`
//    applies one of these, in the assessment and in the repository passes.
//
// Front ends and repository passes only record what they saw (Finding::site); `resolve_site`
// turns that record into the impact, first thing in the assessment.
#include <optional>

#include "core/finding.h"
#include "core/impact.h"
#include "core/site_context.h"
#include "rules/rule.h"

namespace mpsready {

struct SiteImpactResult {
  Impact impact = Impact::info;
  bool capped = false;  // the cap lowered it: the matcher's note says why
};

SiteImpactResult site_impact(const Rule& rule, const SiteContext& site);

// The repository-level stages, each one documented where it is applied.
enum class ImpactChange {
  reached_behind_guard,    // the model reaches the site's module only behind a guard: one level lower
  caught_by_fallback,      // the site sits in a `try` whose handler goes on: one level lower
  not_on_mac_path,         // only behind conditions a Mac makes false (call sites or its own): info
  user_default,            // a device default a user overrides: info
  importers_guarded,       // a requirement imported only behind a guard, or not at all: one level lower
  extension_cpu_path,      // a CUDA extension with a CPU build: a blocker becomes portable
};

// Applies one stage to `f` (its impact, and `guarded` where the stage is a guard).
void change_impact(Finding& f, ImpactChange change);

// Stages 1 and 2, then what the repository passes recorded on the site (a requirement's
// importers, an extension's CPU build): the impact before the model has its say. `rule`: the
// finding's rule as loaded (null leaves the impact as it is).
void resolve_site(Finding& f, const Rule* rule);

}  // namespace mpsready
