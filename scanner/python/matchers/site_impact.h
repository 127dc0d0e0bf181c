#pragma once
// A matcher's own impact for every site it finds, with the note that says why: one matcher of a
// rule may find a use that is harmless on a Mac (`torch.amp.custom_fwd(device_type="cuda")` does
// nothing unless CUDA autocast is on) while the rule's other matchers find real work. Read from the
// matcher's `impact` and `note` parameters, so the rule's data says it, not the scanner; its
// `guarded_impact` likewise replaces the rule's for this matcher's guarded sites.
#include <optional>
#include <string>

#include "core/impact.h"
#include "python/matchers/python_matcher.h"
#include "rules/param_reader.h"

namespace mpsready {

struct SiteImpact {
  std::optional<Impact> impact;
  std::string note;
  std::optional<Impact> guarded;  // `guarded_impact`: the impact of a guarded site

  void apply(RawMatch& m) const {
    if (guarded) m.guarded_impact = guarded;
    if (!impact) return;
    if (!m.impact_cap || *impact < *m.impact_cap) m.impact_cap = impact;
    m.vars["note"] = note;
  }
};

inline SiteImpact read_site_impact(const ParamReader& reader) {
  SiteImpact site;
  if (const std::string guarded = reader.string("guarded_impact", ""); !guarded.empty()) {
    site.guarded = parse_impact(guarded);
    if (!site.guarded) reader.fail("\"guarded_impact\" must be blocker, portable or info, not " + guarded);
  }
  const std::string word = reader.string("impact", "");
  site.note = reader.string("note", "");
  if (word.empty()) {
    if (!site.note.empty()) reader.fail("\"note\" needs \"impact\"");
    return site;
  }
  site.impact = parse_impact(word);
  if (!site.impact) reader.fail("\"impact\" must be blocker, portable or info, not " + word);
  if (site.note.empty()) reader.fail("\"impact\" needs a \"note\" that says why these sites differ");
  return site;
}

}  // namespace mpsready
