#pragma once
// What the installable package itself requires, as the manifest nearest the root lists it
// (`install_requires=[...]`, `[project] dependencies`, poetry's dependencies). When one does, a
// requirements file is an environment for something else — the examples, the tests, a
// development set-up — and a package only it names is no requirement of the core.
#include <optional>
#include <set>
#include <string>

#include "core/repo_facts.h"

namespace mpsready {

struct CoreRequirements {
  std::string manifest;         // the file that lists them
  std::set<std::string> names;  // PEP 503 normalised
};

// nullopt when no manifest of the core lists its requirements as written (a computed list, or
// none at all): then every requirements file speaks for the core.
std::optional<CoreRequirements> read_core_requirements(const RepoFacts& facts);

}  // namespace mpsready
