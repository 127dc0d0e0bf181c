#pragma once
// What a front end or a repository pass saw at one site that bears on its impact. It is the
// site's record, never its meaning: the assessment alone turns it into the finding's impact
// (assess/impact_resolution.h, README "How the verdict is decided").
#include <optional>
#include <string>

#include "core/impact.h"

namespace mpsready {

struct SiteContext {
  // The front end's reading of the site.
  std::optional<Impact> own;          // the table record's or matcher's impact, replacing the rule's
  std::optional<Impact> guarded_own;  // the record's or matcher's impact for a guarded site
  bool guarded = false;               // behind a local CUDA check (or the rule's choice guard)
  std::optional<Impact> cap;          // the matcher's ceiling (a downcast helper, an opt-out option)
  std::string cap_note;               // what the message adds when the cap lowers the impact ("; …")
  std::optional<Impact> limit;        // a requirement's ceiling (platform marker, optional group)
  // In the CUDA branch of an `if`/`elif` chain that also has a branch for MPS: code that already
  // gives each device its own path (python_file.h, device_branches).
  bool device_branch = false;
  // The repository passes' reading (which files build, import or require what).
  bool importers_guarded = false;  // a requirement imported only behind a guard, or not at all
  bool cpu_build = false;          // code of a CUDA extension that has a CPU build
  std::string cpu_build_note;      // what the message adds when the CPU build lowers the impact
  // A site that exists because of another (an import that fails on a Mac because the module it
  // imports does): that one, `path:line`. The assessment keeps this site only while a finding
  // there, if any, counts.
  std::string carried_from;
};

}  // namespace mpsready
