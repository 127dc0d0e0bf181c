#pragma once
// From a scan's findings to the edits the rules' "autofix" data asks for.
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/finding.h"
#include "fix/edit.h"
#include "rules/rule_set.h"

namespace mpsready {

struct EditCollectionOptions {
  bool include_guarded = false;  // guarded sites already have a CUDA check: left alone unless asked
  std::string target_pytorch;    // "" = any: no fix is held back for its PyTorch version
  // Every site, not only those that decide the verdict (in the core, on the path a Mac runs with
  // the defaults, with an impact above info).
  bool all = false;
  // Only these components' sites (names as the scan reports them: `src/pkg`, `examples`); empty:
  // every component. A named component outside the core is fixed as its own core would be:
  // its sites count unless the Mac path or their impact says otherwise.
  std::set<std::string> components;
  size_t max_line = 0;           // the project's line length limit (0 = none)
  std::string max_line_source;   // where it comes from, for reasons ("pyproject.toml", "default")
};

struct CollectedEdits {
  std::vector<Edit> edits;    // unsorted, may overlap (resolve_overlaps)
  std::vector<LeftSite> left; // fixable rules' sites this fix cannot rewrite, and why
};

// `text_of` returns a file's text by its relative path ("" when unreadable); `callees`, the dotted
// names of every call in the scanned tree (what a rewrite's `unless_called` reads).
CollectedEdits collect_edits(const std::vector<Finding>& findings, const RuleSet& rules,
                             const EditCollectionOptions& options,
                             const std::function<const std::string&(const std::string&)>& text_of,
                             const std::set<std::string>& callees = {});

// "2.5" < "2.10": versions compare number by number. Exposed for tests.
bool version_at_least(const std::string& version, const std::string& minimum);

}  // namespace mpsready
