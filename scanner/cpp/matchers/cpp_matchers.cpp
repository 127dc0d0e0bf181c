#include "matchers/cpp_matchers.h"

namespace mpsready {

// The registry of C++ matcher kinds: the only list in code, changed only when a kind is added.
std::unique_ptr<CppMatcher> compile_cpp_matcher(const MatcherSpec& spec, const Rule& rule, const RuleSet& rules) {
  if (spec.kind == "cpp.kernel") return make_cpp_kernel_matcher(spec.params, rule);
  if (spec.kind == "cpp.launch") return make_cpp_launch_matcher(spec.params, rule);
  if (spec.kind == "cpp.call") return make_cpp_call_matcher(spec.params, rule, rules);
  if (spec.kind == "cpp.asm") return make_cpp_asm_matcher(spec.params, rule);
  if (spec.kind == "cpp.include") return make_cpp_include_matcher(spec.params, rule, rules);
  if (spec.kind == "cpp.token") return make_cpp_token_matcher(spec.params, rule, rules);
  if (spec.kind == "cpp.macro") return make_cpp_macro_matcher(spec.params, rule);
  throw RuleError(rule.dir.string() + "/rule.json: unknown matcher kind \"" + spec.kind + "\"");
}

}  // namespace mpsready
