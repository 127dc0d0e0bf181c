#include "deps/dependency_link_pass.h"

#include "deps/module_provider.h"
#include "engine/scanner.h"

namespace mpsready {
namespace {

std::string sites(const std::vector<const ImportFact*>& imports) {
  constexpr size_t kShown = 3;
  std::string out;
  for (size_t i = 0; i < imports.size() && i < kShown; ++i) {
    const ImportFact& f = *imports[i];
    out += (i ? ", " : "") + location_label(f.path, f.cell, f.line);
  }
  if (imports.size() > kShown) out += " and " + std::to_string(imports.size() - kShown) + " more";
  return out;
}

}  // namespace

void DependencyLinkPass::run(ScanResult& result) const {
  for (const DependencyFact& dep : result.facts.dependencies) {
    std::vector<const ImportFact*> unguarded, guarded;
    for (const ImportFact& imp : result.facts.imports) {
      if (!provides_module(dep.modules, imp.module)) continue;
      auto& to = imp.guarded ? guarded : unguarded;
      // `from flash_attn import f` is one site, whatever names it imports.
      if (!to.empty() && to.back()->path == imp.path && to.back()->line == imp.line && to.back()->cell == imp.cell) continue;
      to.push_back(&imp);
    }
    for (Finding& f : result.findings) {
      if (f.rule != dep.rule || f.path != dep.path || f.location.line != dep.line || f.location.column != dep.column)
        continue;
      if (!unguarded.empty()) {
        f.message += "; imported unguarded in " + sites(unguarded);
      } else if (!guarded.empty()) {
        f.message += "; imported only behind a guard (" + sites(guarded) +
                     "), so the code has a fallback, but the requirement still makes `pip install` fail on a Mac";
        f.site.importers_guarded = true;  // the assessment lowers it (assess/impact_resolution.h)
        f.guarded = true;
      } else {
        // The code does without it: only the install is in the way, and a marker
        // (`; sys_platform == "linux"`) or dropping the line fixes that.
        f.message += "; not imported by any scanned file, so only `pip install` is in the way on a Mac";
        f.site.importers_guarded = true;
      }
    }
  }
}

}  // namespace mpsready
