#pragma once
// The Python rules of a scan, compiled once (queries, regexes, tables) and shared read-only by
// all worker threads.
#include <memory>
#include <vector>

#include "python/matchers/combined_query.h"
#include "python/matchers/python_matcher.h"
#include "rules/rule_set.h"

namespace mpsready {

struct CompiledPythonRule {
  const Rule* rule;
  std::vector<std::unique_ptr<PythonMatcher>> matchers;
  std::vector<uint32_t> query_slots;  // its python.query matchers, as slots of the combined query
};

class PythonProgram {
 public:
  // Compiles every rule whose language is python; throws RuleError on a bad rule.
  explicit PythonProgram(const RuleSet& rules);
  const std::vector<CompiledPythonRule>& rules() const { return rules_; }
  const CombinedQuery& queries() const { return queries_; }
  // The index in rules() of the rule a query slot belongs to.
  size_t rule_of_slot(uint32_t slot) const { return rule_of_slot_[slot]; }

 private:
  std::vector<CompiledPythonRule> rules_;
  CombinedQuery queries_;
  std::vector<size_t> rule_of_slot_;
};

}  // namespace mpsready
