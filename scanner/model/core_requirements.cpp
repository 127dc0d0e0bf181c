#include "model/core_requirements.h"

#include <algorithm>
#include <sstream>

#include "model/path_roles.h"

namespace mpsready {

std::optional<CoreRequirements> read_core_requirements(const RepoFacts& facts) {
  // Like the package lists: only the manifests of the core nearest the root speak for it (a
  // sub-project's setup.py lists its own requirements).
  const auto depth = [](const std::string& path) { return std::count(path.begin(), path.end(), '/'); };
  long shallowest = -1;
  for (const PackageFact& p : facts.packages)
    if (p.kind == "package-requires" && !is_peripheral(conventional_role(p.path)) &&
        (shallowest < 0 || depth(p.path) < shallowest))
      shallowest = depth(p.path);
  if (shallowest < 0) return std::nullopt;
  CoreRequirements out;
  for (const PackageFact& p : facts.packages) {
    if (p.kind != "package-requires" || is_peripheral(conventional_role(p.path)) || depth(p.path) != shallowest)
      continue;
    if (out.manifest.empty() || p.path < out.manifest) out.manifest = p.path;
    std::stringstream in(p.text);
    std::string name;
    while (std::getline(in, name, ','))
      if (!name.empty()) out.names.insert(name);
  }
  return out;
}

}  // namespace mpsready
