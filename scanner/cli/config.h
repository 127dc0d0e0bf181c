#pragma once
// The project configuration: `.mpsready.json` at the scanned root, else the `[tool.mpsready]`
// table of the root's `pyproject.toml`, or the file given with --config (JSON, or TOML when it
// ends in .toml). Every key is checked: an unknown key or a wrong type is an error that names the
// file and the key, and nothing in it can point the scanner outside the root.
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
  std::string target_pytorch;             // "target-pytorch" (or the older "target_pytorch"): "2.5" or "2.5.1"
  std::string fail_on;                    // "fail_on": "partial" or "stay-on-linux"
  // "roles": path prefix -> role (core, entry-point, build, tests, examples, benchmarks, docs,
  // tools, research, vendored, notebooks), over the path conventions.
  std::map<std::string, Role> roles;
  std::vector<std::string> components;    // "components": path prefixes that are components
  // "per_file_ignores": gitignore-style glob -> rule ids or prefixes not reported in those files.
  std::vector<std::pair<std::string, std::vector<std::string>>> per_file_ignores;
  // Older spellings the file still uses, one line each for stderr ("target_pytorch" is now ...).
  std::vector<std::string> deprecations;
};

struct ConfigResult {
  std::optional<ProjectConfig> config;  // empty on error
  std::string error;                    // names the file and the key
  std::string note;                     // for stderr: which of two configurations was used
};

// `explicit_file` (--config) wins; else ROOT/.mpsready.json when ROOT is a directory and the file
// exists (read without following a symbolic link); else the [tool.mpsready] table of
// ROOT/pyproject.toml (same rules); else an empty configuration. With both files present the
// dedicated .mpsready.json wins, as ruff's own file wins over pyproject.toml, and `note` says so.
ConfigResult load_project_config(const std::filesystem::path& root, const std::string& explicit_file);
// Parses the text of a configuration file; `where` names it in errors.
ConfigResult parse_project_config(const std::string& text, const std::string& where);
// Parses a pyproject.toml; the [tool.mpsready] table holds the same keys as .mpsready.json.
// No such table: `config` is empty and `error` too. `where` names the file in errors.
ConfigResult parse_pyproject_config(const std::string& text, const std::string& where);
// Every rule pattern the configuration names, each with the key that names it, quoted as errors
// show it ("\"select\"[0]", "\"per_file_ignores.tests/**\"[1]", "\"impact.py-float64\""), for checking
// against the rules.
std::vector<std::pair<std::string, std::string>> config_rule_patterns(const ProjectConfig& config);

}  // namespace mpsready
