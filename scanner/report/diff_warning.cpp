// The one sentence that warns a reviewer of what a change does to its own scan.
#include <algorithm>

#include "report/scan_report.h"

namespace mpsready {

std::string diff_warning(const DiffContext& diff) {
  std::string text;
  if (!diff.config_changes.empty()) {
    text = "this change edits what its own scan is configured by (";
    for (size_t i = 0; i < diff.config_changes.size(); ++i)
      text += (i ? "; " : "") + diff.config_changes[i].first + ": " + diff.config_changes[i].second;
    text += "); the configuration and baseline were read from " + diff.base + " instead";
  }
  if (!diff.suppressions_added.empty()) {
    size_t every = 0;
    for (const auto& s : diff.suppressions_added) every += s.every_rule ? 1 : 0;
    text += text.empty() ? "this change adds " : "; it adds ";
    text += std::to_string(diff.suppressions_added.size()) +
            (diff.suppressions_added.size() == 1 ? " suppression comment" : " suppression comments");
    if (every) text += " (" + std::to_string(every) + " of every rule, `*`)";
    text += ": ";
    const size_t shown = std::min<size_t>(diff.suppressions_added.size(), 5);
    for (size_t i = 0; i < shown; ++i) {
      const auto& s = diff.suppressions_added[i];
      std::string rules;
      for (const std::string& r : s.rules) rules += (rules.empty() ? "" : ",") + r;
      text += (i ? "; " : "") + s.path + ":" + (s.cell ? std::to_string(s.cell) + ":" : "") + std::to_string(s.line) + " " +
              (s.file_level ? "ignore-file[" : "ignore[") + rules + "]";
    }
    if (diff.suppressions_added.size() > shown) text += "; and " + std::to_string(diff.suppressions_added.size() - shown) + " more";
  }
  return text;
}

}  // namespace mpsready
