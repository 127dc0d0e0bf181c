#include "pipeline/extension_link_pass.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "core/verdict.h"
#include "engine/scanner.h"
#include "model/extension_sources.h"
#include "rules/message_template.h"

namespace mpsready {
namespace {

constexpr size_t kSitesNamed = 3;

bool imports_module(const ImportFact& fact, const std::string& module) {
  if (fact.module == module) return true;
  if (fact.module.size() > module.size() && fact.module.compare(0, module.size(), module) == 0 &&
      fact.module[module.size()] == '.')
    return true;
  // `import fused_ext` for an extension named `pkg.fused_ext` (installed as a submodule).
  const size_t dot = module.rfind('.');
  return dot != std::string::npos && fact.module == module.substr(dot + 1);
}

std::string label(const ImportFact& fact) {
  std::string out = fact.path + ":";
  if (fact.cell) out += "cell " + std::to_string(fact.cell) + ":";
  return out + std::to_string(fact.line);
}

std::string join_sites(const std::vector<const ImportFact*>& sites) {
  std::string out;
  for (size_t i = 0; i < sites.size() && i < kSitesNamed; ++i) out += (i ? ", " : "") + label(*sites[i]);
  if (sites.size() > kSitesNamed) out += " and " + std::to_string(sites.size() - kSitesNamed) + " more";
  return out;
}

}  // namespace

ExtensionLinkPass::ExtensionLinkPass(const RuleSet& rules) {
  for (const Rule& r : rules.rules()) {
    if (r.subject == "extension") declaring_rules_.insert(r.id);
    for (const MatcherSpec& m : r.matchers)
      if (m.kind == "repository.extension_import") import_rules_.push_back(&r);
  }
}

void ExtensionLinkPass::run(ScanResult& result) const {
  const RepoFacts& facts = result.facts;
  for (const ExtensionFact& ext : facts.extensions) {
    if (!ext.cuda) continue;
    std::vector<const ImportFact*> unguarded, guarded;
    for (const ImportFact& imp : facts.imports) {
      if (!imports_module(imp, ext.name)) continue;
      (imp.guarded ? guarded : unguarded).push_back(&imp);
    }
    const bool cpp_twin = std::any_of(facts.extensions.begin(), facts.extensions.end(), [&](const ExtensionFact& e) {
      return !e.cuda && e.name == ext.name;
    });
    const auto built_from = [&](const std::string& path) {
      return std::any_of(ext.sources.begin(), ext.sources.end(),
                         [&](const std::string& s) { return extension_source_matches(s, path); });
    };
    const bool cpu_kernels = std::any_of(facts.cpp_units.begin(), facts.cpp_units.end(), [&](const CppUnitFact& u) {
      return built_from(u.path) && u.cpu_registration;
    });
    const bool fallback_everywhere = unguarded.empty() && !guarded.empty();
    const bool has_cpu_path = cpp_twin || cpu_kernels || fallback_everywhere;

    std::string linkage = "extension `" + ext.name + "`";
    if (!ext.sources.empty()) {
      linkage += " (";
      for (size_t i = 0; i < ext.sources.size() && i < kSitesNamed; ++i) linkage += (i ? ", " : "") + ext.sources[i];
      if (ext.sources.size() > kSitesNamed) linkage += ", …";
      linkage += ")";
    }
    if (!unguarded.empty()) linkage += " is imported unguarded by " + join_sites(unguarded);
    else if (!guarded.empty()) linkage += " is imported only behind a fallback, by " + join_sites(guarded);
    else linkage += " is not imported by any scanned Python file";
    if (cpp_twin) linkage += "; a CppExtension of the same name is its CPU build";
    else if (cpu_kernels) linkage += "; its sources register CPU kernels";

    // The unguarded import of a CUDA-only extension is itself a finding, at the import line.
    if (!has_cpu_path) {
      for (const Rule* rule : import_rules_) {
        std::set<std::tuple<std::string, int, int>> reported;  // one finding per import statement
        for (const ImportFact* imp : unguarded) {
          if (!reported.emplace(imp->path, imp->line, imp->cell).second) continue;
          Finding f;
          f.rule = rule->id;
          f.category = rule->category;
          f.impact = rule->impact;
          f.mechanical = rule->mechanical;
          f.path = imp->path;
          f.location = {imp->line, 1, imp->line, 1, imp->cell};
          std::string linkage_text = "`" + ext.name + "`";
          if (!ext.sources.empty()) {
            linkage_text += " (";
            for (size_t i = 0; i < ext.sources.size() && i < kSitesNamed; ++i) linkage_text += (i ? ", " : "") + ext.sources[i];
            if (ext.sources.size() > kSitesNamed) linkage_text += ", …";
            linkage_text += ")";
          }
          linkage_text += " declared at " + ext.path + ":" + std::to_string(ext.line);
          f.message = fill_template(rule->message, {{"name", imp->module}, {"linkage", linkage_text}});
          f.fix = rule->fix;
          result.findings.push_back(std::move(f));
        }
      }
    }
    for (Finding& f : result.findings) {
      const bool declaring_site = f.path == ext.path && f.location.line == ext.line && declaring_rules_.count(f.rule);
      const bool in_sources = built_from(f.path);
      if (!declaring_site && !in_sources) continue;
      if (declaring_site) f.message += "; " + linkage;
      if (has_cpu_path && f.impact == Impact::blocker) {
        // The CUDA code stays on Linux; the repository does not.
        f.impact = Impact::portable;
        if (in_sources) f.message += " (" + linkage + ")";
      }
    }
  }
}

}  // namespace mpsready
