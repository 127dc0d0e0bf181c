#include "pipeline/local_module_pass.h"

#include <algorithm>
#include <set>

#include "engine/scanner.h"

namespace mpsready {
namespace {

// The top-level module names the scanned tree provides: `pkg/__init__.py` and `pkg/x.py` give
// `pkg`; `tool.py` gives `tool`. A `src/` layout counts too (`src/pkg/__init__.py`).
std::set<std::string> local_top_level_modules(const std::vector<std::string>& files) {
  std::set<std::string> names;
  for (std::string path : files) {
    if (path.rfind("src/", 0) == 0) path = path.substr(4);
    const size_t slash = path.find('/');
    std::string first = slash == std::string::npos ? path : path.substr(0, slash);
    if (slash == std::string::npos) {
      if (first.size() > 3 && first.compare(first.size() - 3, 3, ".py") == 0) first.resize(first.size() - 3);
      else continue;
    }
    names.insert(first);
  }
  return names;
}

std::string top_level(const std::string& module) { return module.substr(0, module.find('.')); }

}  // namespace

void LocalModulePass::run(ScanResult& result) const {
  const std::set<std::string> local = local_top_level_modules(result.facts.python_files);
  if (local.empty()) return;
  std::set<std::pair<std::string, int>> own_imports;
  for (const ImportFact& fact : result.facts.imports)
    if (local.count(top_level(fact.module))) own_imports.emplace(fact.path, fact.line);
  std::erase_if(result.findings, [&](const Finding& f) {
    return f.rule == "py-nvidia-only-import" && f.location.cell == 0 && own_imports.count({f.path, f.location.line});
  });
}

}  // namespace mpsready
