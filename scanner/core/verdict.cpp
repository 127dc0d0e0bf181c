#include "core/verdict.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/source_kinds.h"

namespace mpsready {
namespace {

constexpr size_t kLocationsPerReason = 5;
// Effort assumptions (documented in docs/json-output.md): a mechanical edit, a manual change
// in Python or a manifest, and one CUDA/C++ file rewritten as PyTorch ops or a Metal kernel.
constexpr double kHoursMechanical = 5.0 / 60.0;  // 5 minutes
constexpr double kHoursManual = 4.0;              // half a day
constexpr double kHoursRewriteFile = 8.0;         // a day per CUDA/C++ file

Verdict verdict_of(Impact worst, bool any) {
  if (!any || worst == Impact::info) return Verdict::mps_ready;
  return worst == Impact::portable ? Verdict::partial : Verdict::stay_on_linux;
}

// Adds a finding to the reason of its rule (the first of a rule gives the message and context).
// The context says how a Mac gets to the site: the call chain, where the Mac path found one
// (`cli.py:main → run → Model.forward`), in place of the module chain; a context the assessment
// wrote for another reason (a gap, an extension's build) stays.
void add_to_reasons(std::vector<Reason>& reasons, const Finding& f) {
  auto it = std::find_if(reasons.begin(), reasons.end(), [&](const Reason& r) { return r.rule == f.rule; });
  if (it == reasons.end()) {
    const bool call_chain = f.mac_path == "default" && f.mac_chain.find(" → ") != std::string::npos &&
                            (f.context.empty() || f.context.starts_with("reached from "));
    reasons.push_back({f.rule, f.impact, 0, f.message, {}, f.component,
                       call_chain ? "run by a Mac with the defaults: " + f.mac_chain : f.context});
    it = reasons.end() - 1;
  }
  ++it->count;
  if (it->locations.size() < kLocationsPerReason) it->locations.push_back(location_label(f));
}

int role_rank(const std::string& role) { return role == "core" || role == "entry-point" || role == "build" || role.empty() ? 0 : 1; }

}  // namespace

Summary summarize(const std::vector<Finding>& findings, const SummaryContext& context) {
  Summary s;
  s.collection = context.collection;
  s.evidence = context.evidence;
  for (Impact i : {Impact::blocker, Impact::portable, Impact::info}) s.by_impact[std::string(to_string(i))] = 0;
  Impact worst = Impact::info;
  bool any_core = false;
  std::set<std::string> rewrite_files, blocker_rules;
  for (const Finding& f : findings) {
    ++s.by_impact[std::string(to_string(f.impact))];
    ++s.by_category[f.category];
    if (f.guarded) ++s.guarded;
    if (!f.in_core) {
      ++s.outside_core;
      continue;
    }
    any_core = true;
    worst = std::max(worst, f.impact);
    if (f.impact == Impact::blocker) {
      ++s.core_blockers;
      blocker_rules.insert(f.rule);
    }
    if (f.impact == Impact::info) continue;
    if (is_cpp_source(f.path)) {
      rewrite_files.insert(f.path);
      continue;
    }
    ++s.effort.sites;
    ++(f.mechanical ? s.effort.mechanical : s.effort.manual);
  }
  s.effort.rewrite_files = rewrite_files.size();
  s.core_blocker_rules.assign(blocker_rules.begin(), blocker_rules.end());
  // Tenths of an hour: the number is an estimate, and a short decimal prints the same everywhere.
  s.effort.hours = std::round((s.effort.mechanical * kHoursMechanical + s.effort.manual * kHoursManual +
                               s.effort.rewrite_files * kHoursRewriteFile) * 10.0) / 10.0;

  // Components: every one the model knows, with the verdict of its own findings.
  std::map<std::string, size_t> index;
  for (const ComponentInfo& c : context.components) {
    index[c.name] = s.components.size();
    s.components.push_back({c.name, c.role, Verdict::mps_ready, {}, ""});
  }
  std::map<std::string, Impact> component_worst, outside_worst;
  std::map<std::string, bool> reason_carried;  // the component's reason is a carried site
  std::set<std::string> peripheral;
  for (const ComponentInfo& c : context.components)
    if (c.peripheral) peripheral.insert(c.name);
  for (const Finding& f : findings) {
    if (f.component.empty()) continue;
    auto it = index.find(f.component);
    if (it == index.end()) {
      it = index.emplace(f.component, s.components.size()).first;
      s.components.push_back({f.component, f.role, Verdict::mps_ready, {}, ""});
    }
    ComponentSummary& c = s.components[it->second];
    ++c.by_impact[std::string(to_string(f.impact))];
    // A core component's verdict is that of what counts; the rest is listed beside it.
    if (!f.in_core && !peripheral.count(f.component)) {
      ++c.outside_core;
      auto [o, first] = outside_worst.emplace(f.component, f.impact);
      if (!first) o->second = std::max(o->second, f.impact);
      c.outside_core_verdict = verdict_of(o->second, true);
      continue;
    }
    // The reason is the first site at the worst impact, a cause before the imports it carries
    // (SiteContext::carried_from): the import of Triton, not the import of the module holding it.
    auto [w, fresh] = component_worst.emplace(f.component, f.impact);
    const bool carried = !f.site.carried_from.empty();
    if (fresh || f.impact > w->second || (f.impact == w->second && reason_carried[f.component] && !carried)) {
      w->second = f.impact;
      c.reason = f.rule + " at " + location_label(f);
      reason_carried[f.component] = carried;
    }
  }
  for (ComponentSummary& c : s.components) {
    const auto w = component_worst.find(c.name);
    c.verdict = verdict_of(w == component_worst.end() ? Impact::info : w->second, w != component_worst.end());
    if (c.verdict == Verdict::mps_ready) c.reason.clear();
  }

  if (s.collection) {
    // A collection of independent examples: stay-on-linux only when every example is, mps-ready
    // only when every example is; otherwise some run on a Mac and some do not.
    std::set<Verdict> seen;
    for (const ComponentSummary& c : s.components)
      if (c.role == "core" || c.role == "entry-point") seen.insert(c.verdict);
    const auto combined = seen.empty() ? verdict_of(worst, any_core)
                          : seen.size() == 1 ? *seen.begin()
                                             : Verdict::partial;
    s.verdict = combined;
  } else {
    s.verdict = verdict_of(worst, any_core);
  }
  for (const Finding& f : findings)
    if (f.gap) add_to_reasons(s.gaps, f);
  if (s.verdict == Verdict::mps_ready) return s;
  // Reasons: the rules at the deciding impact among findings that count, core before other
  // roles, causes before what they carry, then by path (findings are sorted by path already).
  const Impact deciding = worst;
  std::vector<const Finding*> order;
  for (const Finding& f : findings)
    if (f.in_core && f.impact == deciding) order.push_back(&f);
  // Causes before the imports they carry (SiteContext::carried_from), within a role.
  std::stable_sort(order.begin(), order.end(), [](const Finding* a, const Finding* b) {
    const auto rank = [](const Finding* f) { return std::make_pair(role_rank(f->role), !f->site.carried_from.empty()); };
    return rank(a) < rank(b);
  });
  for (const Finding* f : order) add_to_reasons(s.reasons, *f);
  return s;
}

bool counts_for_verdict(const Finding& finding) { return finding.in_core && !finding.gap; }

bool decides_verdict(const Finding& finding, const Summary& summary) {
  // The reasons are made of exactly the counted findings at the deciding impact (summarize).
  return !summary.reasons.empty() && counts_for_verdict(finding) && finding.impact == summary.reasons.front().impact;
}

}  // namespace mpsready
