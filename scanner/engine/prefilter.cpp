#include "engine/prefilter.h"

#include <cstring>
#include <map>

namespace mpsready {

NeedleFilter::NeedleFilter(const std::vector<std::vector<std::string>>& needles_per_rule)
    : rule_count_(needles_per_rule.size()) {
  std::map<std::string, size_t> index;
  for (size_t rule = 0; rule < needles_per_rule.size(); ++rule) {
    for (const auto& needle : needles_per_rule[rule]) {
      auto [it, inserted] = index.emplace(needle, needles_.size());
      if (inserted) {
        needles_.push_back(needle);
        rules_of_needle_.emplace_back();
      }
      rules_of_needle_[it->second].push_back(rule);
    }
  }
}

std::vector<bool> NeedleFilter::active_rules(std::string_view text) const {
  std::vector<bool> active(rule_count_, false);
  for (size_t n = 0; n < needles_.size(); ++n) {
    // Skip needles whose rules are all active already.
    bool needed = false;
    for (size_t rule : rules_of_needle_[n]) needed = needed || !active[rule];
    if (!needed) continue;
    if (memmem(text.data(), text.size(), needles_[n].data(), needles_[n].size()) != nullptr)
      for (size_t rule : rules_of_needle_[n]) active[rule] = true;
  }
  return active;
}

}  // namespace mpsready
