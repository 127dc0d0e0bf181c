#include "cli/load_rules.h"

#include <iostream>
#include <utility>

#include "rules/rule_selector.h"

namespace mpsready {

std::optional<LoadedRules> load_rules(const GlobalOptions& global, const std::vector<std::string>& select,
                                      const std::vector<std::string>& ignore, const std::string& compile_commands,
                                      const std::function<std::string(const RuleSet&)>& check,
                                      double clang_time_limit_s, const std::map<std::string, Impact>& impacts) {
  try {
    LoadedRules loaded{std::make_unique<RuleSet>(RuleSet::load(default_rules_dir(global.rules_dir, global.argv0))),
                       nullptr};
    if (check) {
      if (const std::string error = check(*loaded.rules); !error.empty()) {
        std::cerr << "mpsready: " << error << "\n";
        return std::nullopt;
      }
    }
    loaded.rules->configure_impacts(impacts);
    // A selector of the command line that names no rule is the user's typo, not a broken rule
    // file: say which option, and the id it most likely meant. (The configuration's lists were
    // checked above, naming its file.)
    std::vector<std::string> ids;
    for (const Rule& r : loaded.rules->rules()) ids.push_back(r.id);
    for (const auto& [option, list] : {std::pair{"--select", &select}, std::pair{"--ignore", &ignore}})
      for (const std::string& selector : *list)
        if (const std::string error = unknown_selector_error(selector, ids); !error.empty()) {
          std::cerr << "mpsready: " << option << ": " << error << "\n";
          return std::nullopt;
        }
    loaded.rules->restrict(select, ignore);
    loaded.pipeline = std::make_unique<Pipeline>(*loaded.rules, compile_commands, clang_time_limit_s);
    return loaded;
  } catch (const RuleError& e) {
    std::cerr << "mpsready: invalid rules: " << e.what()
              << "\n(fix the rule file named above, or pass --rules DIR to use another rules directory)\n";
  } catch (const std::exception& e) {
    std::cerr << "mpsready: cannot load rules: " << e.what()
              << "\n(check the rules directory, or pass --rules DIR to use another one)\n";
  }
  return std::nullopt;
}

}  // namespace mpsready
