#pragma once
// The cheap test that decides which rules can possibly match a file: a rule runs only if the
// file's bytes contain one of its needles, and a file no rule can match is not parsed at all.
#include <string>
#include <string_view>
#include <vector>

namespace mpsready {

class NeedleFilter {
 public:
  // needles_per_rule[i] are the needles of rule i.
  explicit NeedleFilter(const std::vector<std::vector<std::string>>& needles_per_rule);
  // active[i] is true if rule i has a needle in `text`.
  std::vector<bool> active_rules(std::string_view text) const;

 private:
  std::vector<std::string> needles_;                 // each needle once
  std::vector<std::vector<size_t>> rules_of_needle_;  // needle -> rules
  size_t rule_count_;
};

}  // namespace mpsready
