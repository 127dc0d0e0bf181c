#include "cli/load_rules.h"

#include <iostream>

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
