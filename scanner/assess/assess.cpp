#include "assess/assess.h"

#include "assess/impact_resolution.h"
#include "core/source_kinds.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "assess/mps_supported_core.h"
#include "assess/package_scope.h"
#include "core/package_test.h"
#include "model/call_graph.h"
#include "model/device_chooser_calls.h"
#include "model/environments.h"
#include "model/mac_path.h"
#include "model/extension_sources.h"

namespace mpsready {
namespace {

// The extensions built from a C++/CUDA file: its own name in their sources, a glob over it, or
// a source named relative to a computed directory that ends in it.
std::vector<const ExtensionFact*> extensions_built_from(const RepoFacts& facts, const std::string& path) {
  std::vector<const ExtensionFact*> out;
  for (const ExtensionFact& ext : facts.extensions)
    if (extension_builds(ext, path)) out.push_back(&ext);
  return out;
}

// The lines of import statements that import the repository's own modules (an NVIDIA-only
// package's name may also be a local module's: then the import is no dependency at all).
std::set<std::pair<std::string, int>> local_import_lines(const RepoFacts& facts, const RepoModel& model) {
  std::set<std::pair<std::string, int>> out;
  for (const ImportFact& i : facts.imports)
    if (i.level == 0 && i.cell == 0 && model.is_local_module(i.module)) out.emplace(i.path, i.line);
  return out;
}

struct Placement {
  bool in_core = true;
  bool lower = false;  // reached only behind a guard: one impact level lower, like a guarded site
  std::string context;
};

Placement place(const Finding& f, const RepoModel& model, const RepoFacts& facts, Role role) {
  Placement p;
  if (is_peripheral(role)) {
    p.in_core = false;
    p.context = std::string(to_string(role)) + ": not part of what the repository's core runs";
    return p;
  }
  if (f.location.cell) return p;
  if (const ModuleNode* node = model.module_of(f.path)) {
    if (model.in_demo_block(f.path, f.location.line)) {
      p.in_core = false;
      p.context = "in the `__main__` demo of a library module, which importing it never runs";
      return p;
    }
    switch (node->reach) {
      case Reach::unconditional:
      case Reach::lazy:
        if (!node->chain.empty()) p.context = "reached from " + model.chain_text(*node);
        break;
      case Reach::optional:
        // A feature the core can do without: it stays on Linux, the repository does not.
        p.in_core = false;
        p.context = "optional feature, reached only on an optional path: " + model.chain_text(*node);
        break;
      case Reach::guarded:
        p.in_core = false;
        p.lower = true;
        p.context = "reached only behind a guard, so a Mac takes the other path: " + model.chain_text(*node);
        break;
      case Reach::none:
        p.in_core = false;
        p.context = "not reached from the core";
        break;
    }
    return p;
  }
  if (is_cpp_source(f.path)) {
    // A kernel counts as far as the extension built from it is reached.
    Reach best = Reach::none;
    const ModuleNode* via = nullptr;
    bool declared_only = false;
    for (const ExtensionFact* ext : extensions_built_from(facts, f.path)) {
      const ModuleNode* node = model.extension(ext->name);
      if (!node) continue;
      // Built by a manifest but imported by nothing scanned: built with the package, so it counts.
      if (node->reach == Reach::none && !ext->jit) declared_only = true;
      if (node->reach < best) best = node->reach, via = node;
    }
    if (via && (best == Reach::optional || best == Reach::guarded)) {
      p.in_core = false;
      p.lower = best == Reach::guarded;
      p.context = std::string("built into an extension reached only ") +
                  (best == Reach::optional ? "on an optional path" : "behind a guard (the code has a fallback)") + ": " +
                  model.chain_text(*via);
    } else if (via && best != Reach::none) {
      p.context = "built into an extension reached from " + model.chain_text(*via);
    } else if (!via && !declared_only && !extensions_built_from(facts, f.path).empty()) {
      p.in_core = false;
      p.context = "built into an extension that nothing in the core loads";
    }
  }
  return p;
}

bool inside(const std::vector<std::pair<uint32_t, uint32_t>>& spans, const Finding& f) {
  return std::any_of(spans.begin(), spans.end(),
                     [&](const auto& s) { return s.first <= f.start_byte && f.end_byte <= s.second; });
}

// The Mac path of a finding in a Python function (mac_path.h): recorded on the finding, and
// deciding where it is decided. A function a Mac reaches only behind conditions it makes false
// (a CUDA check at the call site, a `try` whose handler falls back) or only behind an option
// that is off by default is no part of what the core runs on a Mac.
void place_on_mac_path(Finding& f, const MacPath& mac, const std::map<std::string, const CodeGraphFact*>& code,
                       bool import_rule, bool site_conditions, bool lazy_module) {
  if (f.location.cell) return;
  const auto file = code.find(f.path);
  if (file == code.end()) return;
  // A device a user overrides: `default="cuda" if torch.cuda.is_available() else "cpu"` of an
  // option that accepts `mps`, a parameter's default. Passing `mps` works; the default is the fix.
  if (f.category == "device-hardcode" && f.impact > Impact::info && inside(file->second->default_spans, f)) {
    change_impact(f, ImpactChange::user_default);
    f.context = "a default a user overrides (pass `mps` for the device): a configuration default, not a hard-coded device" +
                (f.context.empty() ? "" : "; " + f.context);
  }
  // The site itself in a `try` whose handler goes on: a Mac falls back there.
  if (!import_rule && !f.guarded && f.impact > Impact::info && inside(file->second->fallback_spans, f)) {
    change_impact(f, ImpactChange::caught_by_fallback);
    f.context = "a failure here is caught and the code falls back (`try` … `except` goes on)" +
                (f.context.empty() ? "" : "; " + f.context);
  }
  if (!mac.in_function(f.path, f.location.line)) {
    // An import a Mac fails and catches (`try: from apex import amp` / `except ImportError: amp
    // = None`) breaks where what it binds is used untested: it takes those uses' status
    // (MacPath::caught_import).
    if (import_rule && f.in_core)
      if (const auto caught = mac.caught_import(f.path, f.location.line)) {
        f.mac_path = std::string(to_string(caught->status));
        f.mac_chain = caught->chain;
        if (caught->status != MacStatus::not_on_mac && caught->status != MacStatus::optional_off) return;
        f.in_core = false;
        if (caught->status == MacStatus::not_on_mac) change_impact(f, ImpactChange::not_on_mac_path);
        f.context = std::string(caught->status == MacStatus::not_on_mac ? "not on a Mac's path: " : "optional feature, off by default: ") +
                    "on a Mac the import fails and is caught, and what it binds is used untested only in " + caught->chain;
        return;
      }
    // Module code runs when the module is imported. A module the core imports only inside
    // functions (`def dtw_cuda(x): from .triton_ops import kernel`) runs where those functions
    // do: its body's status on the call graph, where that is decided. Elsewhere module code
    // keeps the module reach, as does a body the graph leaves unreached (imported in ways it
    // cannot see).
    if (!lazy_module || !f.in_core) return;
    const auto reach = mac.at(f.path, f.location.line);
    if (!reach || (reach->status != MacStatus::not_on_mac && reach->status != MacStatus::optional_off)) return;
  }
  // A rule that keeps its impact behind CUDA checks reports the check itself (`"cuda" if
  // torch.cuda.is_available() else "cpu"`): the conditions around it are its subject.
  const auto reach = site_conditions ? mac.at(f.path, f.location.line, f.start_byte, f.end_byte)
                                     : mac.at(f.path, f.location.line);
  if (!reach) return;
  f.mac_path = std::string(to_string(reach->status));
  f.mac_chain = reach->chain;
  if (!f.in_core) return;
  if (reach->status == MacStatus::not_on_mac) {
    // Only behind conditions a Mac makes false: nothing a Mac runs, so information.
    f.in_core = false;
    change_impact(f, ImpactChange::not_on_mac_path);
    f.context = "not on a Mac's path: " + reach->chain;
  } else if (reach->status == MacStatus::optional_off) {
    f.in_core = false;
    f.context = "optional feature, off by default: " + reach->chain;
  }
}

// The packages that have no macOS build: those whose record, in the table the failing-import
// rules read, says an import of them fails there (impact blocker), by import name and, for a
// top-level module, by its pip names. A test of whether one is installed is false on a Mac.
std::set<std::string> packages_missing_on_mac(const RuleSet& rules) {
  std::set<std::string> out;
  for (const Rule& r : rules.rules())
    for (const MatcherSpec& m : r.matchers) {
      if (m.kind != "repository.failing_module_import") continue;
      const auto name = m.params.find("table");
      const Table* table = name != m.params.end() && name->is_string() ? rules.table(name->get<std::string>()) : nullptr;
      if (!table) continue;
      for (const TableRecord& record : table->records) {
        const auto impact = record.fields.find("impact");
        if (impact == record.fields.end() || impact->second != "blocker") continue;
        out.insert(normalized_package(record.name));
        if (record.name.find('.') != std::string::npos) continue;
        const auto pip = record.fields.find("pip");
        if (pip == record.fields.end()) continue;
        for (size_t start = 0; start < pip->second.size();) {
          size_t end = pip->second.find(' ', start);
          if (end == std::string::npos) end = pip->second.size();
          const std::string one = pip->second.substr(start, end - start);
          if (!one.empty() && one.find('*') == std::string::npos) out.insert(normalized_package(one));
          start = end + 1;
        }
      }
    }
  return out;
}

}  // namespace

void assess(ScanResult& result, const RuleSet& rules, const AssessOptions& options) {
  const RepoModel model(result.facts, result.files, options.model);
  // The model's own graph where it built one (the same graph, counted by its final roles).
  std::optional<CallGraph> own_graph;
  const CallGraph& graph = model.call_graph() ? *model.call_graph() : own_graph.emplace(result.facts, model);
  const std::set<std::string> missing_packages = packages_missing_on_mac(rules);
  const MacPath mac(result.facts, model, graph, &missing_packages);
  std::map<std::string, const CodeGraphFact*> code;
  for (const CodeGraphFact& g : result.facts.code) code.emplace(g.path, &g);
  const auto local_imports = local_import_lines(result.facts, model);
  const PackageScope packages(result.facts);
  const Environments environments(result.facts);
  std::map<std::pair<std::string, int>, const ImportFact*> branch_imports;
  for (const ImportFact& i : result.facts.imports)
    if (!i.branch.empty() && !i.guarded && i.cell == 0) branch_imports.emplace(std::make_pair(i.path, i.line), &i);
  const auto lazy_module = [&](const std::string& path) {
    const ModuleNode* m = model.module_of(path);
    return m && !m->root && m->reach == Reach::lazy;
  };
  for (auto* list : {&result.findings, &result.suppressed}) {
    std::vector<Finding> assessed;
    assessed.reserve(list->size());
    for (Finding& f : *list) {
      const Rule* rule = rules.find(f.rule);
      resolve_site(f, rule);
      // An import rule's site that imports the repository's own module is no finding.
      if (rule && rule->subject == "import" && local_imports.count({f.path, f.location.line})) continue;
      const Role role = model.role_of(f.path);
      f.component = model.component_of(f.path).name;
      f.role = std::string(to_string(role));
      Placement p = place(f, model, result.facts, role);
      // An import on a feature branch (`if args.optim == "adam8bit": import bitsandbytes`) is that
      // feature's, not the core's.
      if (p.in_core && rule && rule->subject == "import" && f.location.cell == 0) {
        if (const auto it = branch_imports.find({f.path, f.location.line}); it != branch_imports.end()) {
          // Unless a Mac run with the options at their defaults takes that branch (`if has_bias:`
          // in `def f(x, has_bias=True)`): then the import is on the path a Mac runs.
          if (const std::string taken = mac.taken_by_default(f.path, f.start_byte, f.end_byte); !taken.empty()) {
            p.context = "imported " + taken + ", which a run with the options at their defaults takes" +
                        (p.context.empty() ? "" : "; " + p.context);
          } else {
            p.in_core = false;
            p.context = "optional feature: imported only if " + it->second->branch;
          }
        }
      }
      // A package the core does not require: a requirement of another environment, or an
      // import only an optional feature makes.
      if (p.in_core) {
        std::optional<std::string> why = packages.requirement_outside_core(f);
        if (!why && rule && rule->subject == "import") why = packages.optional_import(f);
        if (why) {
          p.in_core = false;
          p.context = *why;
        }
      }
      // A container image is the Linux servers' environment: a Mac runs the code natively
      // (Docker on macOS gives a container no Apple GPU), set up by the native environment the
      // repository declares. Without one, the image is the only set-up there is, and it counts.
      if (p.in_core && environments.is_container(f.path) && !environments.native().empty()) {
        p.in_core = false;
        p.context = "a container's environment, for Linux servers: a Mac runs the code natively, set up from " +
                    environments.native() + " (Docker on macOS gives a container no Apple GPU)";
      }
      // A module outside the core's folders that the core imports: say why it counts.
      if (const std::string* why = model.imported_by_core(f.path); why && p.in_core) p.context = *why;
      f.in_core = p.in_core;
      f.context = p.context;
      if (p.lower && !f.guarded) change_impact(f, ImpactChange::reached_behind_guard);
      if (!is_peripheral(role))
        place_on_mac_path(f, mac, code, rule && rule->subject == "import",
                          !rule || rule->when_guarded != WhenGuarded::keep, lazy_module(f.path));
      assessed.push_back(std::move(f));
    }
    *list = std::move(assessed);
  }
  // A site in the CUDA branch of an `if`/`elif` chain that also has a branch for MPS
  // (SiteContext::device_branch) is the CUDA half of code that already gives each device its own
  // path: a Mac takes the MPS branch, and there is nothing to change or report.
  for (auto* list : {&result.findings, &result.suppressed})
    std::erase_if(*list, [](const Finding& f) { return f.site.device_branch; });
  // A site carried by another (an import of a module whose own import fails on a Mac) stays only
  // while the finding of an import rule at its cause counts: a blocker of the core, not
  // suppressed. With no such finding there (its rule not enabled), it stands on its own.
  std::set<std::string> causes, counted;
  for (auto* list : {&result.findings, &result.suppressed})
    for (const Finding& f : *list) {
      const Rule* rule = rules.find(f.rule);
      if (!rule || rule->subject != "import" || f.location.cell) continue;
      const std::string at = f.path + ":" + std::to_string(f.location.line);
      causes.insert(at);
      if (list == &result.findings && f.in_core && f.impact == Impact::blocker) counted.insert(at);
    }
  for (auto* list : {&result.findings, &result.suppressed})
    std::erase_if(*list, [&](const Finding& f) {
      return !f.site.carried_from.empty() && causes.count(f.site.carried_from) && !counted.count(f.site.carried_from);
    });
  // Portable sites in a few corners of a core that selects MPS itself are its gaps, listed on
  // their component; they do not decide the repository (mps_supported_core.h).
  if (const auto gaps = corner_gaps(result.findings, model, graph))
    for (auto* list : {&result.findings, &result.suppressed})
      for (Finding& f : *list)
        if (f.in_core && f.impact == Impact::portable && gaps->files.count(f.path)) {
          f.in_core = false;
          f.gap = true;
          f.context = gaps->why + (f.context.empty() ? "" : "; " + f.context);
        }
  SummaryContext& context = result.summary_context;
  context.components.clear();
  for (const Component& c : model.components())
    context.components.push_back({c.name, std::string(to_string(c.role)), is_peripheral(c.role)});
  context.collection = model.collection();
  // The model's evidence, and the calls of the repository's own device choosers (evidence for
  // the reports; corner_gaps above reads the model's alone).
  context.evidence = model.evidence();
  for (EvidenceFact& e : device_chooser_calls(result.facts, graph)) context.evidence.push_back(std::move(e));
  std::stable_sort(context.evidence.begin(), context.evidence.end(), [](const EvidenceFact& a, const EvidenceFact& b) {
    return std::tie(a.kind, a.path, a.cell, a.line) < std::tie(b.kind, b.path, b.cell, b.line);
  });
  conclude(result, options.funnel);
}

}  // namespace mpsready
