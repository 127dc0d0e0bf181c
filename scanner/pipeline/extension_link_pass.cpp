#include "pipeline/extension_link_pass.h"

#include <algorithm>
#include <map>
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

std::string label(const ImportFact& fact) { return location_label(fact.path, fact.cell, fact.line); }

std::string join_sites(const std::vector<const ImportFact*>& sites) {
  std::string out;
  for (size_t i = 0; i < sites.size() && i < kSitesNamed; ++i) out += (i ? ", " : "") + label(*sites[i]);
  if (sites.size() > kSitesNamed) out += " and " + std::to_string(sites.size() - kSitesNamed) + " more";
  return out;
}

bool cuda_source(std::string_view path) {
  return path.ends_with(".cu") || path.ends_with(".cuh");
}

bool header(std::string_view path) { return path.ends_with(".h") || path.ends_with(".hpp"); }

// How many of the operators a CUDA build exports its CPU build implements.
struct OpCoverage {
  std::vector<std::string> exported;  // by the CUDA build, sorted
  std::vector<std::string> missing;   // with no CPU implementation, sorted
  bool applies() const { return !exported.empty(); }
  // Most: more than half of the operators reach CPU code.
  bool covered() const { return missing.size() * 2 < exported.size(); }
};

// Which function names reach CPU code in a CPU build: a definition reaches it when its own path
// does (no raise without CUDA), the registry key it dispatches on has an implementation for the
// CPU or MPS in that build, and every function it always calls that the build defines reaches
// it too (`nms` → `nms_impl` → `DISPATCH_DEVICE_IMPL(nms_impl, …)`). A name reaches CPU code
// when one of its definitions does. A worklist carries "does not reach" from callees to callers
// (no recursion, each definition turned once), so a cycle of wrappers that raise nowhere reaches
// CPU code.
std::map<std::string, bool> cpu_functions(const std::vector<const CppUnitFact*>& units) {
  std::set<std::string> mac_keys;  // registry keys with a CPU or MPS implementation
  for (const CppUnitFact* u : units)
    for (const CppDeviceImplFact& impl : u->device_impls)
      if (!impl.cuda_only && (impl.device == "CPU" || impl.device == "MPS")) mac_keys.insert(impl.key);
  struct Definition {
    std::string name;
    bool cpu;
  };
  std::vector<Definition> defs;
  std::map<std::string, size_t> reaching;  // name → how many of its definitions reach CPU code
  std::map<std::string, std::vector<size_t>> callers;  // callee → the definitions that always call it
  for (const CppUnitFact* u : units)
    for (const CppFunctionFact& fn : u->functions) {
      const bool cpu = fn.cpu && (fn.dispatches.empty() || mac_keys.count(fn.dispatches) > 0);
      reaching[fn.name] += cpu ? 1 : 0;
      for (const std::string& callee : fn.calls)
        if (callee != fn.name) callers[callee].push_back(defs.size());
      defs.push_back({fn.name, cpu});
    }
  std::vector<std::string> work;
  for (const auto& [name, count] : reaching)
    if (count == 0) work.push_back(name);
  while (!work.empty()) {
    const std::string callee = std::move(work.back());
    work.pop_back();
    const auto it = callers.find(callee);
    if (it == callers.end()) continue;
    for (size_t d : it->second) {
      if (!defs[d].cpu) continue;
      defs[d].cpu = false;
      if (--reaching[defs[d].name] == 0) work.push_back(defs[d].name);
    }
  }
  std::map<std::string, bool> reaches;
  for (const auto& [name, count] : reaching) reaches[name] = count > 0;
  return reaches;
}

// `cuda_units`: the files of the CUDA build; `cpu_units`: those of its CPU build. A function
// bound by name is looked up among the CPU build's files and every header; one not found there
// counts as implemented (nothing says it is not).
OpCoverage op_coverage(const std::vector<const CppUnitFact*>& cuda_units, const std::vector<const CppUnitFact*>& cpu_units,
                       const std::vector<CppUnitFact>& all_units) {
  OpCoverage out;
  std::set<std::string> exported;
  for (const CppUnitFact* u : cuda_units)
    for (const CppOpFact& op : u->ops)
      if (op.key.empty() || op.key == "CUDA") exported.insert(op.name);
  std::vector<const CppUnitFact*> cpu_build = cpu_units;
  for (const CppUnitFact& u : all_units)
    if (header(u.path) && std::find(cpu_build.begin(), cpu_build.end(), &u) == cpu_build.end()) cpu_build.push_back(&u);
  const std::map<std::string, bool> cpu_function = cpu_functions(cpu_build);
  std::set<std::string> implemented;
  for (const CppUnitFact* u : cpu_units)
    for (const CppOpFact& op : u->ops) {
      if (op.cuda_only || op.schema_only || op.key == "CUDA" || !exported.count(op.name)) continue;
      bool cpu = op.lambda_cpu;
      if (!op.function.empty()) {
        const auto it = cpu_function.find(op.function);
        cpu = it == cpu_function.end() || it->second;
      }
      if (cpu) implemented.insert(op.name);
    }
  out.exported.assign(exported.begin(), exported.end());
  for (const std::string& name : exported)
    if (!implemented.count(name)) out.missing.push_back(name);
  return out;
}

std::string describe(const OpCoverage& c) {
  std::string out = "its CPU build implements " + std::to_string(c.exported.size() - c.missing.size()) + " of the " +
                    std::to_string(c.exported.size()) + " operators the CUDA build exports";
  if (c.missing.empty()) return out;
  out += " (no CPU code for ";
  for (size_t i = 0; i < c.missing.size() && i < kSitesNamed; ++i) out += (i ? ", " : "") + c.missing[i];
  if (c.missing.size() > kSitesNamed) out += " and " + std::to_string(c.missing.size() - kSitesNamed) + " more";
  return out + ")";
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
    const auto twin = std::find_if(facts.extensions.begin(), facts.extensions.end(), [&](const ExtensionFact& e) {
      return !e.cuda && e.name == ext.name;
    });
    const bool cpp_twin = twin != facts.extensions.end();
    const auto built_from_sources = [](const ExtensionFact& e, const std::string& path) { return extension_builds(e, path); };
    const auto built_from = [&](const std::string& path) { return built_from_sources(ext, path); };
    const bool cpu_kernels = std::any_of(facts.cpp_units.begin(), facts.cpp_units.end(), [&](const CppUnitFact& u) {
      return built_from(u.path) && u.cpu_registration;
    });
    // The CPU build (the CppExtension twin, or the extension's own C++ files) must implement most
    // of the operators the CUDA build exports, not only raise for them.
    std::vector<const CppUnitFact*> cuda_units, cpu_units;
    for (const CppUnitFact& u : facts.cpp_units) {
      if (built_from(u.path)) cuda_units.push_back(&u);
      if (cpp_twin ? built_from_sources(*twin, u.path) : built_from(u.path) && !cuda_source(u.path))
        cpu_units.push_back(&u);
    }
    // A CPU build whose sources are not literal is not read: nothing says what it lacks.
    const OpCoverage coverage = cpp_twin && twin->sources.empty() ? OpCoverage{}
                                                                  : op_coverage(cuda_units, cpu_units, facts.cpp_units);
    const bool cpu_build = (cpp_twin || cpu_kernels) && (!coverage.applies() || coverage.covered());
    const bool fallback_everywhere = unguarded.empty() && !guarded.empty();
    // A module that imports the extension and raises NotImplementedError on its path without
    // CUDA needs the CUDA build whatever the CPU build offers. So does a build script that raises
    // it without CUDA before it declares the extension: on a Mac the install stops there, and the
    // CppExtension it would declare instead is never built.
    std::string raises_without_cuda;
    for (const ModuleFact& m : facts.modules) {
      if (m.cuda_only_raises.empty() || !raises_without_cuda.empty()) continue;
      if (m.path == ext.path && m.cuda_only_raises.front() < ext.line) {
        raises_without_cuda = m.path + ":" + std::to_string(m.cuda_only_raises.front());
        continue;
      }
      const auto imports_here = [&](const ImportFact* imp) { return imp->path == m.path; };
      if (std::any_of(unguarded.begin(), unguarded.end(), imports_here) ||
          std::any_of(guarded.begin(), guarded.end(), imports_here))
        raises_without_cuda = m.path + ":" + std::to_string(m.cuda_only_raises.front());
    }
    const bool has_cpu_path = (cpu_build || fallback_everywhere) && raises_without_cuda.empty();

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
    if ((cpp_twin || cpu_kernels) && coverage.applies()) linkage += ", and " + describe(coverage);
    if (!raises_without_cuda.empty()) linkage += "; " + raises_without_cuda + " raises NotImplementedError without CUDA";

    // The unguarded import of a CUDA-only extension is itself a finding, at the import line.
    if (!has_cpu_path) {
      for (const Rule* rule : import_rules_) {
        std::set<std::tuple<std::string, int, int>> reported;  // one finding per import statement
        for (const ImportFact* imp : unguarded) {
          if (!reported.emplace(imp->path, imp->line, imp->cell).second) continue;
          Finding f;
          f.rule = rule->id;
          f.category = rule->category;
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
          // Why a Mac has no working build of it, as true as the facts read: a CPU build that
          // lacks most operators imports fine and fails at the calls.
          if (!raises_without_cuda.empty())
            linkage_text += "; " + raises_without_cuda + " raises NotImplementedError without CUDA, so on a Mac it stops there";
          else if ((cpp_twin || cpu_kernels) && coverage.applies() && !coverage.covered())
            linkage_text += "; " + describe(coverage) + ", so on a Mac most of its operators fail when called";
          else
            linkage_text += "; it has no CPU build and no fallback here, so on a Mac the import fails";
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
      if (has_cpu_path) {
        // The assessment lowers a blocker here (assess/impact_resolution.h): the CUDA code stays
        // on Linux; the repository does not.
        f.site.cpu_build = true;
        if (in_sources) f.site.cpu_build_note = " (" + linkage + ")";
      }
    }
  }
}

}  // namespace mpsready
