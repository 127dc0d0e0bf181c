#include "python/matchers/python_matcher.h"

namespace mpsready {

// The registry of matcher kinds: the only list in code, changed only when a kind is added
// (python.query, combined for the whole scan, is added in PythonProgram).
std::unique_ptr<PythonMatcher> compile_python_matcher(const MatcherSpec& spec, const Rule& rule,
                                                      const RuleSet& rules) {
  if (spec.kind == "python.call") return make_call_matcher(spec.params, rule, rules);
  if (spec.kind == "python.name") return make_name_matcher(spec.params, rule, rules);
  if (spec.kind == "python.import") return make_import_matcher(spec.params, rule, rules);
  if (spec.kind == "python.array_to_device") return make_array_to_device_matcher(spec.params, rule, rules);
  if (spec.kind == "python.op_coverage") return make_op_coverage_matcher(spec.params, rule, rules);
  throw RuleError(rule.dir.string() + "/rule.json: unknown matcher kind \"" + spec.kind + "\"");
}

}  // namespace mpsready
