#pragma once
// From a scan's findings to the edits the rules' "autofix" data asks for.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/finding.h"
#include "fix/edit.h"
#include "rules/rule_set.h"

namespace mpsready {

struct EditCollectionOptions {
  bool include_guarded = false;  // guarded sites already have a CUDA check: left alone unless asked
  std::string target_pytorch;    // "" = any: no fix is held back for its PyTorch version
};

struct CollectedEdits {
  std::vector<Edit> edits;    // unsorted, may overlap (resolve_overlaps)
  std::vector<LeftSite> left; // fixable rules' sites this fix cannot rewrite, and why
};

// `text_of` returns a file's text by its relative path ("" when unreadable).
CollectedEdits collect_edits(const std::vector<Finding>& findings, const RuleSet& rules,
                             const EditCollectionOptions& options,
                             const std::function<const std::string&(const std::string&)>& text_of);

// "2.5" < "2.10": versions compare number by number. Exposed for tests.
bool version_at_least(const std::string& version, const std::string& minimum);

}  // namespace mpsready
