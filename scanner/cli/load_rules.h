#pragma once
// Loads and compiles the rules for a command, printing a clear message on failure.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "pipeline/pipeline.h"
#include "rules/rule_set.h"

namespace mpsready {

struct LoadedRules {
  std::unique_ptr<RuleSet> rules;  // on the heap: the pipeline points into it
  std::unique_ptr<Pipeline> pipeline;
};

std::optional<LoadedRules> load_rules(const GlobalOptions& global, const std::vector<std::string>& select,
                                      const std::vector<std::string>& ignore,
                                      const std::string& compile_commands = "",
                                      const std::function<std::string(const RuleSet&)>& check = {},
                                      double clang_time_limit_s = kDefaultClangTimeLimit,
                                      const std::map<std::string, Impact>& impacts = {});
// `check` runs on the whole rule set before --select/--ignore apply; a non-empty result is printed
// as the error and no rules are returned. `impacts` (the configuration's, by rule id) then rewrite
// the rules (RuleSet::configure_impacts), before any front end compiles them: every stage of the
// scan, the passes and the reporters see the configured rule.

}  // namespace mpsready
