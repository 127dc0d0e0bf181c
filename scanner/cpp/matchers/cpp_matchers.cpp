#include "matchers/cpp_matchers.h"

#include <algorithm>

#include "core/impact.h"

namespace mpsready {
namespace {

// Params every C++ matcher kind accepts: `files` limits the matcher to files of a kind, and
// `impact`, `guarded_impact`, `mechanical`, `message`, `fix` override the rule's for its sites
// (applied after a table record's). Read here, so the kinds never see them.
struct Scope {
  bool libtorch_application_only = false;
  TableRecord overrides;
};

Scope read_scope(nlohmann::json& params, const Rule& rule, const std::string& kind) {
  Scope scope;
  if (!params.is_object()) return scope;
  const std::string where = rule.dir.string() + "/rule.json: " + kind + " ";
  if (params.contains("files")) {
    const auto& files = params["files"];
    if (!files.is_array()) throw RuleError(where + "\"files\" must be an array of file kinds");
    for (const auto& f : files) {
      if (!f.is_string() || f.get<std::string>() != "libtorch-application")
        throw RuleError(where + "unknown file kind " + f.dump() + " in \"files\" (known: \"libtorch-application\")");
      scope.libtorch_application_only = true;
    }
    params.erase("files");
  }
  for (const char* key : {"impact", "guarded_impact"}) {
    if (!params.contains(key)) continue;
    const auto& v = params[key];
    if (!v.is_string() || !parse_impact(v.get<std::string>()))
      throw RuleError(where + "\"" + key + "\" must be blocker, portable or info");
    scope.overrides.fields[key] = v.get<std::string>();
    params.erase(key);
  }
  for (const char* key : {"message", "fix"}) {
    if (!params.contains(key)) continue;
    if (!params[key].is_string()) throw RuleError(where + "\"" + key + "\" must be a string");
    scope.overrides.fields[key] = params[key].get<std::string>();
    params.erase(key);
  }
  if (params.contains("mechanical")) {
    if (!params["mechanical"].is_boolean()) throw RuleError(where + "\"mechanical\" must be true or false");
    scope.overrides.fields["mechanical"] = params["mechanical"].get<bool>() ? "true" : "false";
    params.erase("mechanical");
  }
  return scope;
}

class ScopedMatcher final : public CppMatcher {
 public:
  ScopedMatcher(std::unique_ptr<CppMatcher> inner, Scope scope) : inner_(std::move(inner)), scope_(std::move(scope)) {}

  void match(const CppFile& file, std::vector<CppRawMatch>& out) const override {
    if (scope_.libtorch_application_only && !file.libtorch_application) return;
    const size_t first = out.size();
    inner_->match(file, out);
    if (scope_.overrides.fields.empty()) return;
    for (size_t i = first; i < out.size(); ++i) out[i].overrides = &scope_.overrides;
  }

 private:
  std::unique_ptr<CppMatcher> inner_;
  Scope scope_;
};

std::unique_ptr<CppMatcher> compile_kind(const std::string& kind, const nlohmann::json& params, const Rule& rule,
                                         const RuleSet& rules) {
  if (kind == "cpp.kernel") return make_cpp_kernel_matcher(params, rule);
  if (kind == "cpp.launch") return make_cpp_launch_matcher(params, rule);
  if (kind == "cpp.call") return make_cpp_call_matcher(params, rule, rules);
  if (kind == "cpp.asm") return make_cpp_asm_matcher(params, rule);
  if (kind == "cpp.include") return make_cpp_include_matcher(params, rule, rules);
  if (kind == "cpp.token") return make_cpp_token_matcher(params, rule, rules);
  if (kind == "cpp.macro") return make_cpp_macro_matcher(params, rule);
  throw RuleError(rule.dir.string() + "/rule.json: unknown matcher kind \"" + kind + "\"");
}

}  // namespace

// The registry of C++ matcher kinds: the only list in code, changed only when a kind is added.
std::unique_ptr<CppMatcher> compile_cpp_matcher(const MatcherSpec& spec, const Rule& rule, const RuleSet& rules) {
  nlohmann::json params = spec.params;
  Scope scope = read_scope(params, rule, spec.kind);
  auto inner = compile_kind(spec.kind, params, rule, rules);
  if (!scope.libtorch_application_only && scope.overrides.fields.empty()) return inner;
  return std::make_unique<ScopedMatcher>(std::move(inner), std::move(scope));
}

}  // namespace mpsready
