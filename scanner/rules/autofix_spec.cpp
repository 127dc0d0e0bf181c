#include "rules/autofix_spec.h"

#include <stdexcept>

#include <re2/re2.h>

namespace mpsready {

namespace {

std::string string_at(const nlohmann::json& json, const char* key, const std::string& where) {
  if (!json.contains(key)) return "";
  if (!json[key].is_string()) throw std::invalid_argument(where + "\"" + key + "\" must be a string");
  return json[key].get<std::string>();
}

void check_regex(const std::string& pattern, const std::string& where) {
  const RE2 re(pattern, RE2::Quiet);
  if (!re.ok()) throw std::invalid_argument(where + "is not a valid RE2 pattern: " + re.error());
}

}  // namespace

const char* to_string(AutofixMode mode) {
  switch (mode) {
    case AutofixMode::rewrite: return "rewrite";
    case AutofixMode::suggestion: return "suggestion";
    case AutofixMode::none: return "none";
  }
  return "none";
}

AutofixSpec parse_autofix(const nlohmann::json& json) {
  if (!json.is_object()) throw std::invalid_argument("\"autofix\" must be an object");
  for (const auto& [key, _] : json.items()) {
    if (key != "mode" && key != "pytorch" && key != "requires" && key != "requires_note" && key != "rewrites" &&
        key != "module" && key != "bindings" && key != "retires_imports")
      throw std::invalid_argument("\"autofix\": unknown key \"" + key + "\"");
  }
  AutofixSpec spec;
  const std::string mode = string_at(json, "mode", "\"autofix\": ");
  if (mode == "rewrite") spec.mode = AutofixMode::rewrite;
  else if (mode == "suggestion") spec.mode = AutofixMode::suggestion;
  else if (mode == "none") spec.mode = AutofixMode::none;
  else throw std::invalid_argument("\"autofix.mode\" must be rewrite, suggestion or none");
  spec.pytorch = string_at(json, "pytorch", "\"autofix\": ");
  if (!spec.pytorch.empty() && !RE2::FullMatch(spec.pytorch, R"(\d{1,3}\.\d{1,3}(\.\d{1,3})?)"))
    throw std::invalid_argument("\"autofix.pytorch\" must be a version such as \"1.10\"");
  spec.requires_text = string_at(json, "requires", "\"autofix\": ");
  if (!spec.requires_text.empty()) check_regex(spec.requires_text, "\"autofix.requires\" ");
  spec.requires_note = string_at(json, "requires_note", "\"autofix\": ");
  if (json.contains("rewrites")) {
    if (!json["rewrites"].is_array()) throw std::invalid_argument("\"autofix.rewrites\" must be an array");
    for (size_t i = 0; i < json["rewrites"].size(); ++i) {
      const auto& r = json["rewrites"][i];
      const std::string where = "\"autofix.rewrites\"[" + std::to_string(i) + "]: ";
      if (!r.is_object() || !r.contains("match") || !r.contains("replace") ||
          r.size() != 2u + r.count("pytorch") + r.count("bound_name") + r.count("context") + r.count("unless_called") + r.count("bound_object") +
                          r.count("unless_note") + r.count("note"))
        throw std::invalid_argument(where + "must be an object with \"match\" and \"replace\" (and optionally "
                                            "\"pytorch\", \"bound_name\", \"context\", \"unless_called\", \"note\")");
      AutofixRewrite rewrite{string_at(r, "match", where), string_at(r, "replace", where), string_at(r, "pytorch", where),
                             string_at(r, "bound_name", where)};
      const std::string context = string_at(r, "context", where);
      if (context == "statement") rewrite.context = RewriteContext::statement;
      else if (context == "argument") rewrite.context = RewriteContext::argument;
      else if (context == "value") rewrite.context = RewriteContext::value;
      else if (!context.empty()) throw std::invalid_argument(where + "\"context\" must be statement, argument or value");
      rewrite.unless_called = string_at(r, "unless_called", where);
      if (!rewrite.unless_called.empty()) check_regex(rewrite.unless_called, where + "\"unless_called\" ");
      rewrite.unless_note = string_at(r, "unless_note", where);
      if (r.contains("bound_object")) {
        if (!r["bound_object"].is_boolean()) throw std::invalid_argument(where + "\"bound_object\" must be true or false");
        rewrite.bound_object = r["bound_object"].get<bool>();
        if (rewrite.bound_object && rewrite.bound_name.empty())
          throw std::invalid_argument(where + "\"bound_object\" needs a \"bound_name\"");
      }
      if (rewrite.unless_called.empty() != rewrite.unless_note.empty())
        throw std::invalid_argument(where + "\"unless_called\" and \"unless_note\" go together");
      rewrite.note = string_at(r, "note", where);
      if (!rewrite.bound_name.empty() && !RE2::FullMatch(rewrite.bound_name, "[A-Za-z_][A-Za-z_0-9]*"))
        throw std::invalid_argument(where + "\"bound_name\" must be a Python name");
      if (!rewrite.pytorch.empty() && !RE2::FullMatch(rewrite.pytorch, R"([0-9]{1,3}\.[0-9]{1,3}(\.[0-9]{1,3})?)"))
        throw std::invalid_argument(where + "\"pytorch\" must be a version such as \"2.6\"");
      const RE2 re(rewrite.match, RE2::Quiet);
      if (!re.ok()) throw std::invalid_argument(where + "\"match\" is not a valid RE2 pattern: " + re.error());
      std::string error;
      if (!re.CheckRewriteString(rewrite.replace, &error))
        throw std::invalid_argument(where + "\"replace\": " + error);
      spec.rewrites.push_back(std::move(rewrite));
    }
  }
  spec.module = string_at(json, "module", "\"autofix\": ");
  if (!spec.module.empty() && !RE2::FullMatch(spec.module, "[A-Za-z_][A-Za-z_0-9]*"))
    throw std::invalid_argument("\"autofix.module\" must be a Python name");
  if (json.contains("bindings")) {
    if (!json["bindings"].is_array()) throw std::invalid_argument("\"autofix.bindings\" must be an array");
    for (size_t i = 0; i < json["bindings"].size(); ++i) {
      const auto& b = json["bindings"][i];
      const std::string where = "\"autofix.bindings\"[" + std::to_string(i) + "]: ";
      if (!b.is_object() || !b.contains("name") || !b.contains("text") || b.size() != 2u + b.count("pytorch"))
        throw std::invalid_argument(where + "must be an object with \"name\" and \"text\" (and optionally \"pytorch\")");
      AutofixBinding binding{string_at(b, "name", where), string_at(b, "text", where), string_at(b, "pytorch", where)};
      if (!RE2::FullMatch(binding.name, "[A-Za-z_][A-Za-z_0-9]*"))
        throw std::invalid_argument(where + "\"name\" must be a Python name");
      if (binding.text.empty() || binding.text.back() == '\n')
        throw std::invalid_argument(where + "\"text\" must be lines without a trailing newline");
      if (!binding.pytorch.empty() && !RE2::FullMatch(binding.pytorch, R"([0-9]{1,3}\.[0-9]{1,3}(\.[0-9]{1,3})?)"))
        throw std::invalid_argument(where + "\"pytorch\" must be a version such as \"2.6\"");
      spec.bindings.push_back(std::move(binding));
    }
  }
  if (json.contains("retires_imports")) {
    const auto& list = json["retires_imports"];
    if (!list.is_array()) throw std::invalid_argument("\"autofix.retires_imports\" must be an array of module names");
    for (const auto& m : list) {
      if (!m.is_string() || !RE2::FullMatch(m.get<std::string>(), R"([A-Za-z_][A-Za-z_0-9]*(\.[A-Za-z_][A-Za-z_0-9]*)*)"))
        throw std::invalid_argument("\"autofix.retires_imports\" must be an array of module names");
      spec.retires_imports.push_back(m.get<std::string>());
    }
  }
  for (const AutofixRewrite& r : spec.rewrites) {
    if (r.bound_name.empty()) continue;
    bool bindable = false;
    for (const AutofixBinding& b : spec.bindings) bindable = bindable || (b.name == r.bound_name && b.pytorch.empty());
    if (!bindable && !spec.bindings.empty())
      throw std::invalid_argument("\"autofix.bindings\" has no binding for \"" + r.bound_name + "\" that any target may use");
  }
  if (spec.mode == AutofixMode::rewrite && spec.rewrites.empty())
    throw std::invalid_argument("\"autofix\": mode rewrite needs at least one rewrite");
  if (spec.mode != AutofixMode::rewrite && !spec.rewrites.empty())
    throw std::invalid_argument("\"autofix\": only mode rewrite has rewrites");
  return spec;
}

}  // namespace mpsready
