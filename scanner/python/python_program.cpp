#include "python/python_program.h"

namespace mpsready {

PythonProgram::PythonProgram(const RuleSet& rules) {
  for (const Rule& rule : rules.rules()) {
    if (rule.language != "python") continue;
    CompiledPythonRule compiled{&rule, {}};
    for (const MatcherSpec& spec : rule.matchers) {
      try {
        // Repository-level kinds are implemented by a repository pass (extension_link_pass).
        if (spec.kind.rfind("repository.", 0) == 0) continue;
        if (spec.kind == "python.query") {
          compiled.query_slots.push_back(queries_.add(spec.params, rule));
          rule_of_slot_.push_back(rules_.size());
          continue;
        }
        compiled.matchers.push_back(compile_python_matcher(spec, rule, rules));
      } catch (const nlohmann::json::exception& e) {
        throw RuleError(rule.dir.string() + "/rule.json: " + spec.kind +
                        " params have a value of the wrong type (" + e.what() + ")");
      }
    }
    // A rule only a repository pass implements has nothing to match per file: its needles must
    // not make every file that mentions them parsed.
    if (compiled.matchers.empty() && compiled.query_slots.empty()) continue;
    rules_.push_back(std::move(compiled));
  }
  queries_.compile();
}

}  // namespace mpsready
