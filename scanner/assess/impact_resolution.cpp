#include "assess/impact_resolution.h"

#include <algorithm>

namespace mpsready {

SiteImpactResult site_impact(const Rule& rule, const SiteContext& site) {
  // A configured rule's impact is the user's word for every site of the rule: records and
  // matchers refine the rule's own impact, not one the user chose.
  Impact impact = rule.impact;
  std::optional<Impact> guarded = rule.guarded_impact;
  if (!rule.impact_configured) {
    if (site.own) impact = *site.own;
    if (site.guarded_own) guarded = site.guarded_own;
  }
  if (site.guarded) impact = guarded ? std::min(*guarded, impact) : lowered(impact);
  SiteImpactResult result{impact, false};
  // Ceilings last: they say how high the site can be at most, whatever lowered it before.
  if (site.cap && *site.cap < result.impact) {
    result.impact = *site.cap;
    result.capped = true;
  }
  if (site.limit) result.impact = std::min(result.impact, *site.limit);
  return result;
}

void resolve_site(Finding& f, const Rule* rule) {
  if (rule) {
    const SiteImpactResult resolved = site_impact(*rule, f.site);
    f.impact = resolved.impact;
    if (resolved.capped) f.message += f.site.cap_note;
  }
  // A requirement's own marker or group already bounds it (stage 2): its importers change nothing.
  if (f.site.importers_guarded && !f.site.limit && f.impact != Impact::info) {
    change_impact(f, ImpactChange::importers_guarded);
    f.mechanical = true;  // a marker or dropping the line is the fix
  }
  if (f.site.cpu_build && f.impact == Impact::blocker) {
    // The CUDA code stays on Linux; the repository does not.
    change_impact(f, ImpactChange::extension_cpu_path);
    f.message += f.site.cpu_build_note;
  }
}

void change_impact(Finding& f, ImpactChange change) {
  switch (change) {
    case ImpactChange::not_on_mac_path:
      // Nothing a Mac runs: information, whatever the site was, guarded or not.
      f.impact = Impact::info;
      f.guarded = true;
      return;
    case ImpactChange::reached_behind_guard:
    case ImpactChange::caught_by_fallback:
      // A Mac takes the other path: the site is guarded, as if a local check stood before it.
      f.impact = lowered(f.impact);
      f.guarded = true;
      return;
    case ImpactChange::importers_guarded:
      f.impact = lowered(f.impact);
      return;
    case ImpactChange::user_default:
      f.impact = Impact::info;
      return;
    case ImpactChange::extension_cpu_path:
      if (f.impact == Impact::blocker) f.impact = Impact::portable;
      return;
  }
}

}  // namespace mpsready
