#include "deps/matchers/deps_matcher.h"

#include <algorithm>

namespace mpsready {

// The registry of deps matcher kinds: the only list in code, changed only when a kind is added.
std::unique_ptr<DepsMatcher> compile_deps_matcher(const MatcherSpec& spec, const Rule& rule, const RuleSet& rules) {
  if (spec.kind == "deps.package") return make_package_matcher(spec.params, rule, rules);
  if (spec.kind == "deps.directive") return make_directive_matcher(spec.params, rule);
  throw RuleError(rule.dir.string() + "/rule.json: unknown matcher kind \"" + spec.kind + "\"");
}

std::vector<DepsFileKind> parse_file_kinds(const nlohmann::json& params, const Rule& rule, const char* kind) {
  std::vector<DepsFileKind> out;
  if (!params.contains("files")) return out;
  const auto fail = [&](const std::string& what) {
    throw RuleError(rule.dir.string() + "/rule.json: " + kind + " \"files\": " + what);
  };
  if (!params["files"].is_array()) fail("must be an array of file kinds");
  static const std::vector<DepsFileKind> all = {
      DepsFileKind::requirements, DepsFileKind::setup_py, DepsFileKind::setup_cfg, DepsFileKind::pyproject,
      DepsFileKind::pipfile,      DepsFileKind::conda,    DepsFileKind::dockerfile, DepsFileKind::compose,
      DepsFileKind::cmake,        DepsFileKind::make,     DepsFileKind::shell,      DepsFileKind::config};
  for (const auto& f : params["files"]) {
    if (!f.is_string()) fail("must be an array of strings");
    const auto it = std::find_if(all.begin(), all.end(), [&](DepsFileKind k) { return f.get<std::string>() == to_string(k); });
    if (it == all.end()) fail("unknown file kind \"" + f.get<std::string>() + "\"");
    out.push_back(*it);
  }
  return out;
}

void read_overrides(const nlohmann::json& params, const Rule& rule, const char* kind, DepsMatch& into) {
  const auto where = rule.dir.string() + "/rule.json: " + kind + " ";
  if (params.contains("impact")) {
    const auto impact = params["impact"].is_string() ? parse_impact(params["impact"].get<std::string>()) : std::nullopt;
    if (!impact) throw RuleError(where + "\"impact\" must be blocker, portable or info");
    into.impact = impact;
  }
  for (const char* key : {"message", "fix"}) {
    if (!params.contains(key)) continue;
    if (!params[key].is_string()) throw RuleError(where + "\"" + key + "\" must be a string");
    (std::string(key) == "message" ? into.message : into.fix) = params[key].get<std::string>();
  }
  if (params.contains("mechanical")) {
    if (!params["mechanical"].is_boolean()) throw RuleError(where + "\"mechanical\" must be true or false");
    into.mechanical = params["mechanical"].get<bool>();
  }
}

}  // namespace mpsready
