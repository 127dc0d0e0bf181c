#pragma once
// Whether the core needs a package a finding is about. A requirement that only a requirements
// file names, when the installable package lists its own requirements elsewhere, belongs to the
// environment that file sets up (examples, tests, development). An import of a package the core
// does not require, made inside a function or behind an import fallback, is an optional feature:
// the package is there only for a user who installs it, and a Mac without it runs the rest.
// Both need a manifest that lists the package's requirements as written; without one nothing
// says what is optional. A module-level import without a fallback is never optional: the module
// needs the package.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/finding.h"
#include "core/repo_facts.h"
#include "model/core_requirements.h"

namespace mpsready {

class PackageScope {
 public:
  explicit PackageScope(const RepoFacts& facts);

  // Why a requirement finding does not count for the core, or nullopt when it does.
  std::optional<std::string> requirement_outside_core(const Finding& f) const;
  // Why an import finding is an optional feature's, or nullopt when the core needs the import.
  std::optional<std::string> optional_import(const Finding& f) const;

 private:
  bool required_by_core(const std::string& module) const;

  const RepoFacts& facts_;
  std::optional<CoreRequirements> core_;
  // (path, line) of a script's imports; `import a, b` puts two on one line.
  std::multimap<std::pair<std::string, int>, const ImportFact*> imports_;
};

}  // namespace mpsready
