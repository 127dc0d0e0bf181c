#include "cli/config.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "engine/file_reader.h"

namespace mpsready {

namespace {

using json = nlohmann::json;

struct ConfigError {
  std::string message;
};

std::vector<std::string> string_list(const json& value, const std::string& key) {
  if (!value.is_array()) throw ConfigError{"\"" + key + "\" must be an array of strings"};
  std::vector<std::string> out;
  for (size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string())
      throw ConfigError{"\"" + key + "\"[" + std::to_string(i) + "] must be a string"};
    out.push_back(value[i].get<std::string>());
  }
  return out;
}

// An exclude pattern stays inside the root: relative, no ".." component, no backslash (which
// could be a Windows separator), no NUL.
void check_inside_root(const std::string& pattern, const std::string& key) {
  const auto reject = [&](const std::string& why) {
    throw ConfigError{"\"" + key + "\": \"" + pattern + "\" " + why};
  };
  if (pattern.empty()) reject("is empty");
  std::string body = pattern;
  if (body[0] == '!') body.erase(0, 1);  // a negation
  if (!body.empty() && (body[0] == '/' || body[0] == '~')) {
    // "/build" is anchored at the root in gitignore syntax; "//x" or "~" would not be.
    if (body[0] == '~' || (body.size() > 1 && body[1] == '/'))
      reject("is an absolute path; excludes are relative to the scanned root");
  }
  if (body.size() >= 2 && body[1] == ':') reject("is an absolute path; excludes are relative to the scanned root");
  if (body.find('\\') != std::string::npos || body.find('\0') != std::string::npos)
    reject("contains a backslash or NUL; use '/' separators");
  size_t start = 0;
  while (start <= body.size()) {
    size_t end = body.find('/', start);
    if (end == std::string::npos) end = body.size();
    if (body.compare(start, end - start, "..") == 0) reject("points outside the scanned root (\"..\")");
    start = end + 1;
  }
}

ProjectConfig parse(const json& doc) {
  if (!doc.is_object()) throw ConfigError{"the configuration must be a JSON object"};
  ProjectConfig config;
  for (const auto& [key, value] : doc.items()) {
    if (key == "$schema" || key == "$comment") {
      if (!value.is_string()) throw ConfigError{"\"" + key + "\" must be a string"};
    } else if (key == "exclude") {
      config.excludes = string_list(value, key);
      for (size_t i = 0; i < config.excludes.size(); ++i)
        check_inside_root(config.excludes[i], key + "[" + std::to_string(i) + "]");
    } else if (key == "select") {
      config.select = string_list(value, key);
    } else if (key == "ignore") {
      config.ignore = string_list(value, key);
    } else if (key == "impact") {
      if (!value.is_object()) throw ConfigError{"\"impact\" must be an object of rule id -> impact"};
      for (const auto& [rule, impact] : value.items()) {
        const std::string where = "impact." + rule;
        if (!impact.is_string()) throw ConfigError{"\"" + where + "\" must be a string (blocker, portable or info)"};
        const auto parsed = parse_impact(impact.get<std::string>());
        if (!parsed)
          throw ConfigError{"\"" + where + "\": \"" + impact.get<std::string>() +
                            "\" is not an impact (blocker, portable or info)"};
        config.impacts[rule] = *parsed;
      }
    } else if (key == "target-pytorch" || key == "target_pytorch") {
      // One name for the target PyTorch, as the command line spells it; the older one still works.
      if (key == "target_pytorch")
        config.deprecations.push_back("\"target_pytorch\" is now spelled \"target-pytorch\" (the old name still works)");
      if (!value.is_string()) throw ConfigError{"\"" + key + "\" must be a string such as \"2.5\""};
      config.target_pytorch = value.get<std::string>();
      if (!std::regex_match(config.target_pytorch, std::regex(R"(\d{1,3}\.\d{1,3}(\.\d{1,3})?)")))
        throw ConfigError{"\"" + key + "\": \"" + config.target_pytorch + "\" is not a version such as \"2.5\" or \"2.5.1\""};
    } else if (key == "fail_on") {
      if (!value.is_string()) throw ConfigError{"\"fail_on\" must be a string (partial or stay-on-linux)"};
      config.fail_on = value.get<std::string>();
      if (config.fail_on != "partial" && config.fail_on != "stay-on-linux")
        throw ConfigError{"\"fail_on\": \"" + config.fail_on + "\" is not partial or stay-on-linux"};
    } else if (key == "roles") {
      if (!value.is_object()) throw ConfigError{"\"roles\" must be an object of path prefix -> role"};
      for (const auto& [prefix, role] : value.items()) {
        const std::string where = "roles." + prefix;
        check_inside_root(prefix, where);
        const auto parsed = role.is_string() ? parse_role(role.get<std::string>()) : std::nullopt;
        if (!parsed)
          throw ConfigError{"\"" + where + "\" must be a role (core, entry-point, build, tests, examples, benchmarks, "
                            "docs, tools, research, vendored, notebooks)"};
        std::string clean = prefix;
        while (!clean.empty() && clean.back() == '/') clean.pop_back();
        config.roles[clean] = *parsed;
      }
    } else if (key == "components") {
      config.components = string_list(value, key);
      for (size_t i = 0; i < config.components.size(); ++i) {
        check_inside_root(config.components[i], key + "[" + std::to_string(i) + "]");
        while (!config.components[i].empty() && config.components[i].back() == '/') config.components[i].pop_back();
      }
    } else if (key == "per_file_ignores") {
      if (!value.is_object()) throw ConfigError{"\"per_file_ignores\" must be an object of glob -> array of rule ids"};
      for (const auto& [glob, ids] : value.items()) {
        const std::string where = "per_file_ignores." + glob;
        check_inside_root(glob, where);
        config.per_file_ignores.emplace_back(glob, string_list(ids, where));
      }
    } else {
      throw ConfigError{"unknown key \"" + key +
                        "\" (known: exclude, select, ignore, impact, target-pytorch, fail_on, roles, components, "
                        "per_file_ignores)"};
    }
  }
  return config;
}

// TOML values as the JSON values the checks above expect: a TOML date or time becomes a string
// tagged as such, so that a wrong type still reads as one.
json to_json(const toml::node& node) {
  if (const auto* t = node.as_table()) {
    json out = json::object();
    for (const auto& [k, v] : *t) out[std::string(k.str())] = to_json(v);
    return out;
  }
  if (const auto* a = node.as_array()) {
    json out = json::array();
    for (const auto& v : *a) out.push_back(to_json(v));
    return out;
  }
  if (const auto* v = node.as_string()) return v->get();
  if (const auto* v = node.as_integer()) return v->get();
  if (const auto* v = node.as_floating_point()) return v->get();
  if (const auto* v = node.as_boolean()) return v->get();
  return json::array({"a TOML date or time"});  // never a string: "must be a string" names it
}

ConfigResult from_json(const json& doc, const std::string& where) {
  ConfigResult out;
  try {
    out.config = parse(doc);
    out.config->source = where;
  } catch (const ConfigError& e) {
    out.error = where + ": " + e.message;
  }
  return out;
}

// A file of the scanned repository: never through a symbolic link, never large. `text` is
// left empty with no error when the file does not exist.
std::string read_root_file(const std::filesystem::path& file, std::string& text, bool& exists) {
  constexpr uintmax_t kMaxConfig = 1 << 20;
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(file, ec);
  exists = std::filesystem::exists(status);
  if (!exists) return "";
  const std::string where = file.string();
  if (std::filesystem::is_symlink(status)) return where + ": is a symbolic link; not followed (use --config FILE)";
  if (!std::filesystem::is_regular_file(status)) return where + ": not a regular file";
  if (std::filesystem::file_size(file, ec) > kMaxConfig) return where + ": larger than 1 MiB";
  const ReadResult read = read_repository_file(file, kMaxConfig);
  if (!read.bytes) return "cannot read config " + where + ": " + read.error;
  text = *read.bytes;
  return "";
}

}  // namespace

ConfigResult parse_pyproject_config(const std::string& text, const std::string& where) {
  toml::table doc;
  try {
    doc = toml::parse(text, where);
  } catch (const toml::parse_error& e) {
    return {std::nullopt, where + ":" + std::to_string(e.source().begin.line) + ": not valid TOML: " +
                              std::string(e.description())};
  }
  const toml::node* table = doc["tool"]["mpsready"].node();
  if (!table) return {std::nullopt, ""};
  if (!table->is_table()) return {std::nullopt, where + ": \"tool.mpsready\" must be a table ([tool.mpsready])"};
  return from_json(to_json(*table), where + " [tool.mpsready]");
}

std::vector<std::pair<std::string, std::string>> config_rule_patterns(const ProjectConfig& config) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto quoted = [](const std::string& key) { return "\"" + key + "\""; };
  for (size_t i = 0; i < config.select.size(); ++i) out.emplace_back(quoted("select") + "[" + std::to_string(i) + "]", config.select[i]);
  for (size_t i = 0; i < config.ignore.size(); ++i) out.emplace_back(quoted("ignore") + "[" + std::to_string(i) + "]", config.ignore[i]);
  for (const auto& [id, impact] : config.impacts) out.emplace_back(quoted("impact." + id), id);
  for (const auto& [glob, ids] : config.per_file_ignores)
    for (size_t i = 0; i < ids.size(); ++i)
      out.emplace_back(quoted("per_file_ignores." + glob) + "[" + std::to_string(i) + "]", ids[i]);
  return out;
}

ConfigResult parse_project_config(const std::string& text, const std::string& where) {
  ConfigResult out;
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    out.error = where + ": not valid JSON: " + e.what();
    return out;
  } catch (const json::exception&) {  // out_of_range: a number too large for a double
    out.error = where + ": not valid JSON: a number in it is out of range";
    return out;
  }
  return from_json(doc, where);
}

ConfigResult load_project_config(const std::filesystem::path& root, const std::string& explicit_file) {
  constexpr uintmax_t kMaxConfig = 1 << 20;
  std::error_code ec;
  if (!explicit_file.empty()) {
    // The user named this file: it may live anywhere (and be a link); its contents still
    // cannot point outside the root.
    std::ifstream in(explicit_file, std::ios::binary);
    if (!in) return {std::nullopt, "cannot read config " + explicit_file + ": " + std::strerror(errno)};
    if (std::filesystem::is_directory(explicit_file, ec))
      return {std::nullopt, "cannot read config " + explicit_file + ": it is a directory"};
    std::string text((std::istreambuf_iterator<char>(in)), {});
    if (text.size() > kMaxConfig) return {std::nullopt, explicit_file + ": larger than 1 MiB"};
    if (!explicit_file.ends_with(".toml")) return parse_project_config(text, explicit_file);
    ConfigResult toml_config = parse_pyproject_config(text, explicit_file);
    if (!toml_config.config && toml_config.error.empty())
      toml_config.error = explicit_file + ": has no [tool.mpsready] table";
    return toml_config;
  }
  if (!std::filesystem::is_directory(std::filesystem::symlink_status(root, ec))) return {ProjectConfig{}, ""};
  std::string json_text, toml_text;
  bool json_exists = false, toml_exists = false;
  if (std::string error = read_root_file(root / ".mpsready.json", json_text, json_exists); !error.empty())
    return {std::nullopt, error};
  if (std::string error = read_root_file(root / "pyproject.toml", toml_text, toml_exists); !error.empty()) {
    // A pyproject.toml that is a link or too large matters only when it is the configuration.
    if (!json_exists) return {std::nullopt, error};
    toml_exists = false;
  }
  const std::string json_where = (root / ".mpsready.json").string();
  const std::string toml_where = (root / "pyproject.toml").string();
  // Only a table that is there counts: a pyproject.toml without one is no configuration, and one
  // that is not valid TOML is an error only when it seems to hold the table (the repository's
  // packaging is not mpsready's to judge here).
  ConfigResult from_toml{std::nullopt, ""};
  if (toml_exists) {
    from_toml = parse_pyproject_config(toml_text, toml_where);
    if (!from_toml.config && from_toml.error.find("not valid TOML") != std::string::npos &&
        toml_text.find("tool.mpsready") == std::string::npos)
      from_toml.error.clear();
  }
  const bool has_table = from_toml.config || !from_toml.error.empty();
  if (json_exists) {
    ConfigResult out = parse_project_config(json_text, json_where);
    if (has_table) out.note = "using " + json_where + "; the [tool.mpsready] table of " + toml_where + " is ignored";
    return out;
  }
  if (!has_table) return {ProjectConfig{}, ""};
  return from_toml;
}

}  // namespace mpsready
