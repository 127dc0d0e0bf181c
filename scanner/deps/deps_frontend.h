#pragma once
// The deps front end: manifests, container and build files, job scripts, with the deps rules.
#include <memory>
#include <vector>

#include "deps/matchers/deps_matcher.h"
#include "engine/frontend.h"
#include "rules/rule_set.h"

namespace mpsready {

struct CompiledDepsRule {
  const Rule* rule;
  std::vector<std::unique_ptr<DepsMatcher>> matchers;
};

class DepsFrontend final : public Frontend {
 public:
  // Compiles every rule whose language is deps; throws RuleError on a bad rule.
  explicit DepsFrontend(const RuleSet& rules);
  bool wants(std::string_view path) const override;
  std::unique_ptr<FrontendWorker> make_worker() const override;
  const std::vector<CompiledDepsRule>& rules() const { return rules_; }

 private:
  std::vector<CompiledDepsRule> rules_;
};

}  // namespace mpsready
