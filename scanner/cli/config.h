#pragma once
// The project configuration: `.mpsready.json` at the scanned root, or the file given with
// --config. Every key is checked: an unknown key or a wrong type is an error that names the key,
// and nothing in it can point the scanner outside the root.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/impact.h"
#include "model/repo_model.h"

namespace mpsready {

struct ProjectConfig {
  std::string source;                     // where it was read from ("" = none)
  std::vector<std::string> excludes;      // "exclude": gitignore-style globs, relative to the root
  std::vector<std::string> select;        // "select": rule ids or prefixes ("py-cuda-*")
  std::vector<std::string> ignore;        // "ignore": rule ids or prefixes
  std::map<std::string, Impact> impacts;  // "impact": rule id -> impact for its unguarded sites
  std::string target_pytorch;             // "target_pytorch": "2.5" or "2.5.1"
  std::string fail_on;                    // "fail_on": "partial" or "stay-on-linux"
  // "roles": path prefix -> role (core, entry-point, build, tests, examples, benchmarks, docs,
  // tools, research, vendored, notebooks), over the path conventions.
  std::map<std::string, Role> roles;
  std::vector<std::string> components;    // "components": path prefixes that are components
};

struct ConfigResult {
  std::optional<ProjectConfig> config;  // empty on error
  std::string error;                    // names the file and the key
};

// `explicit_file` (--config) wins; else ROOT/.mpsready.json when ROOT is a directory and the file
// exists (read without following a symbolic link); else an empty configuration.
ConfigResult load_project_config(const std::filesystem::path& root, const std::string& explicit_file);
// Parses the text of a configuration file; `where` names it in errors.
ConfigResult parse_project_config(const std::string& text, const std::string& where);

}  // namespace mpsready
