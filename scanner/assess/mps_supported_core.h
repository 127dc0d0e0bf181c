#pragma once
// A core that already runs on MPS by its maintainers' choice: its own modules select the `mps`
// device (`elif torch.backends.mps.is_available(): return "mps"`, a `device.type == "mps"`
// branch). Such a library is used on Macs; a portable site left in a small share of its modules
// (float64 in an optional initialisation, one method of many) is a gap in a corner that users
// who need it meet, not the path the library's users take. The gaps stay listed, on their
// component, and do not decide the repository's verdict. Where the gaps are not few — more than
// kMaxGapShare of the core's modules, or any in a program users run — or the core
// holds a blocker, or nothing in the core selects MPS, every portable site counts as before.
// A site in a class's constructor breaks every subclass too (each instance runs it): the share
// counts the core modules of those subclasses beside the site's own. A device dispatch in the
// `__init__` of the base class of every inference interface is no corner; the same dispatch in
// one leaf class, or in a method only a caller who asks for a feature runs, is.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/finding.h"
#include "model/call_graph.h"
#include "model/repo_model.h"

namespace mpsready {

// At most this share of the core's modules may hold portable sites (3 in 100): a core of 33
// modules holds none, so a small repository's gap always counts.
inline constexpr double kMaxGapShare = 0.03;

struct CornerGaps {
  std::set<std::string> files;  // the files whose in-core portable sites are gaps
  std::set<std::string> broken;  // those and the core files of subclasses whose constructor holds one
  std::string why;              // what makes them gaps, for each finding's context
};

// The gaps of an MPS-supporting core, read from findings the assessment has placed (in_core and
// impact final), or nullopt when the conditions above do not hold.
std::optional<CornerGaps> corner_gaps(const std::vector<Finding>& placed, const RepoModel& model,
                                      const CallGraph& graph);

}  // namespace mpsready
