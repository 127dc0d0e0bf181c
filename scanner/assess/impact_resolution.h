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
// This library depends only on the rules, so that the front ends and passes that create
// findings can call it without depending on the rest of the assessment.
#include <optional>

#include "core/finding.h"
#include "core/impact.h"
#include "rules/rule.h"

namespace mpsready {

// What a front end saw at one site that bears on its impact.
struct SiteContext {
  std::optional<Impact> own;      // the table record's or matcher's impact, replacing the rule's
  std::optional<Impact> guarded_own;  // the record's or matcher's impact for a guarded site
  bool guarded = false;           // behind a local CUDA check (or the rule's choice guard)
  std::optional<Impact> cap;      // the matcher's ceiling (a downcast helper, an opt-out option)
  std::optional<Impact> limit;    // a requirement's ceiling (platform marker, optional group)
};

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

}  // namespace mpsready
