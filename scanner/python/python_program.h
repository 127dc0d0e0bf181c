#pragma once
// The Python rules of a scan, compiled once (queries, regexes, tables) and shared read-only by
// all worker threads.
#include <memory>
#include <vector>

#include "python/matchers/python_matcher.h"
#include "rules/rule_set.h"

namespace mpsready {

struct CompiledPythonRule {
  const Rule* rule;
  std::vector<std::unique_ptr<PythonMatcher>> matchers;
};

class PythonProgram {
 public:
  // Compiles every rule whose language is python; throws RuleError on a bad rule.
  explicit PythonProgram(const RuleSet& rules);
  const std::vector<CompiledPythonRule>& rules() const { return rules_; }

 private:
  std::vector<CompiledPythonRule> rules_;
};

}  // namespace mpsready
