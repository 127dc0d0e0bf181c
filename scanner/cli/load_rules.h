#pragma once
// Loads and compiles the rules for a command, printing a clear message on failure.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "python/python_program.h"
#include "rules/rule_set.h"

namespace mpsready {

struct LoadedRules {
  RuleSet rules;
  std::unique_ptr<PythonProgram> python;
};

std::optional<LoadedRules> load_rules(const GlobalOptions& global, const std::vector<std::string>& select,
                                      const std::vector<std::string>& ignore);

}  // namespace mpsready
