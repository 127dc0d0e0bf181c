#pragma once
// Links compiled extensions to their sources and to the Python files that import them, and
// decides whether a CUDA extension keeps the repository on Linux: imported unguarded with
// CUDA-only sources, it is a blocker; with a CPU implementation (a CppExtension of the same
// name, a CPU registration in its sources, or a fallback at every import site) it is portable.
#include <set>
#include <string>
#include <vector>

#include "engine/frontend.h"
#include "rules/rule_set.h"

namespace mpsready {

class ExtensionLinkPass final : public RepositoryPass {
 public:
  // The rules whose findings declare an extension are those whose rule.json says `"subject":
  // "extension"`.
  explicit ExtensionLinkPass(const RuleSet& rules);
  void run(ScanResult& result) const override;

 private:
  std::set<std::string> declaring_rules_;
  // Rules whose matcher is `repository.extension_import`: an unguarded import of a CUDA-only
  // extension is their finding, at the import line.
  std::vector<const Rule*> import_rules_;
};

}  // namespace mpsready
