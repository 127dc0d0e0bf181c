#include "core/verdict.h"

#include <algorithm>

namespace mpsready {
namespace {
constexpr size_t kLocationsPerReason = 5;
}

std::string location_label(const Finding& f) {
  std::string out = f.path + ":";
  if (f.location.cell) out += "cell " + std::to_string(f.location.cell) + ":";
  return out + std::to_string(f.location.line);
}

Summary summarize(const std::vector<Finding>& findings) {
  Summary s;
  for (Impact i : {Impact::blocker, Impact::portable, Impact::info}) s.by_impact[std::string(to_string(i))] = 0;
  Impact worst = Impact::info;
  for (const Finding& f : findings) {
    ++s.by_impact[std::string(to_string(f.impact))];
    ++s.by_category[f.category];
    if (f.guarded) ++s.guarded;
    worst = std::max(worst, f.impact);
    if (f.impact != Impact::info) {
      ++s.effort.sites;
      ++(f.mechanical ? s.effort.mechanical : s.effort.manual);
    }
  }
  // An unguarded blocker keeps the repository on Linux; guarded ones were already lowered.
  s.verdict = findings.empty() || worst == Impact::info ? Verdict::mps_ready
              : worst == Impact::portable              ? Verdict::partial
                                                       : Verdict::stay_on_linux;
  if (s.verdict == Verdict::mps_ready) return s;
  // Reasons: the rules at the deciding impact, in order of first appearance.
  for (const Finding& f : findings) {
    if (f.impact != worst) continue;
    auto it = std::find_if(s.reasons.begin(), s.reasons.end(),
                           [&](const Reason& r) { return r.rule == f.rule; });
    if (it == s.reasons.end()) {
      s.reasons.push_back({f.rule, f.impact, 0, f.message, {}});
      it = s.reasons.end() - 1;
    }
    ++it->count;
    if (it->locations.size() < kLocationsPerReason) it->locations.push_back(location_label(f));
  }
  return s;
}

}  // namespace mpsready
