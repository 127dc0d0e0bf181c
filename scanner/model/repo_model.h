#pragma once
// What the repository is, built once per scan from the per-file facts and before anything is
// judged: its modules and their names, the import graph between them, its components and their
// roles, how the core reaches each module, and the evidence it gives about MPS. The assessment
// reads this; nothing here looks at findings.
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/repo_facts.h"

namespace mpsready {

class CallGraph;

// The part a file plays. Core roles decide the repository's verdict; the others get verdicts of
// their own.
enum class Role { core, entry_point, build, tests, examples, benchmarks, docs, tools, research, vendored, notebooks };
std::string_view to_string(Role role);
std::optional<Role> parse_role(std::string_view text);
bool is_peripheral(Role role);

// How the core reaches a module, best first. `lazy` is deferred, not optional: an import inside
// a function runs whenever that function does. `optional` is a feature branch (`if args.trt:`),
// `guarded` a CUDA check or an import fallback; `none`: nothing in the core imports it.
enum class Reach { unconditional = 0, lazy = 1, optional = 2, guarded = 3, none = 4 };
std::string_view to_string(Reach reach);

struct Component {
  std::string name;    // `pkg`, `examples`, `examples/cifar`, `(root)`
  std::string prefix;  // path prefix of its files ("" for the root scripts)
  Role role = Role::core;
};

struct ModelConfig {
  // `.mpsready.json` "roles": glob-free path prefixes to a role, and "components": extra
  // path prefixes that are components of their own (with the role their path gives them).
  std::map<std::string, Role> roles;
  std::vector<std::string> components;
};

// One step of the chain that proves how a module is reached: `from` imports it at `line`.
struct ReachStep {
  std::string from;
  int line = 0;
  Reach kind = Reach::unconditional;
  std::string detail;  // the function or branch ("lazy in export_engine", "if args.trt")
};

struct ModuleNode {
  std::string path;   // repository-relative file; "" for an extension (built, not a file)
  std::string name;   // dotted module name
  bool root = false;  // the core starts here
  Reach reach = Reach::none;
  std::vector<ReachStep> chain;  // from a root to this module
};

class RepoModel {
 public:
  RepoModel(const RepoFacts& facts, const std::vector<std::string>& scanned_paths, const ModelConfig& config);
  // The module index alone — module names, `resolve_name`, `is_local_module`, `module_of` — for
  // a repository pass that follows imports before the model is built. Roles, components, reach
  // and evidence are left empty: the full model answers those.
  static RepoModel module_index(const RepoFacts& facts);

  // A module the core imports on its default path is core, whatever its folder says
  // (core_imports.h); a role the configuration gives still wins.
  Role role_of(const std::string& path) const;
  // Why a module outside the core's folders counts as core ("imported by the core from
  // pkg/__init__.py:3"); nullptr for every other path.
  const std::string* imported_by_core(const std::string& path) const;
  // The call graph the model built to decide what the core carries in, counted against the
  // final roles; null where it needed none (the assessment then builds one).
  const CallGraph* call_graph() const { return graph_.get(); }
  const Component& component_of(const std::string& path) const;
  const std::vector<Component>& components() const { return components_; }
  // Every module: the repository's Python files and the extensions built from its sources.
  const std::vector<ModuleNode>& modules() const { return nodes_; }
  // How the core reaches this file: a Python module directly, a C++ source through the extension
  // built from it, anything else (manifests, scripts) by its role. nullptr: not a module.
  const ModuleNode* module_of(const std::string& path) const;
  const ModuleNode* extension(const std::string& name) const;
  // Whether `line` of `path` lies in the `__main__` block of a module that is no entry point
  // (a demo at the bottom of a library file).
  bool in_demo_block(const std::string& path, int line) const;
  // Whether `module` (absolute, as imported) is the repository's own.
  bool is_local_module(const std::string& module) const;
  // A name as imported from `from` (`pkg.ops.smooth`, or relative with `level` dots): the file of
  // the longest prefix that is the repository's module, and the rest (`smooth`). nullopt: not the
  // repository's, or the importing file itself.
  struct NameTarget {
    std::string path;
    std::string rest;
  };
  std::optional<NameTarget> resolve_name(const std::string& from, const std::string& name, int level) const;
  // A chain as text: "train.py → models/yolo.py:12 → utils/ops.py:3 (module level)".
  std::string chain_text(const ModuleNode& node) const;
  bool collection() const { return collection_; }
  const std::vector<EvidenceFact>& evidence() const { return evidence_; }

 private:
  void index_modules(const RepoFacts& facts);
  // The folders of the top-level packages the manifests declare; false when none declares any
  // that exists (the folders with an `__init__.py` stand in then).
  bool declared_package_tops(const RepoFacts& facts);
  // The folder that makes `path`'s component: its first segment, or two under a folder that
  // holds packages (`src/pkg`, `lib/pkg`).
  std::string component_prefix(const std::string& path) const;
  void index_extensions(const RepoFacts& facts);
  struct IndexOnly {};
  RepoModel(const RepoFacts& facts, IndexOnly);
  void index_entry_points(const RepoFacts& facts);
  void build_components(const std::vector<std::string>& paths, const ModelConfig& config);
  void compute_reach(const RepoFacts& facts);
  // Counts the modules the core imports on its default path as core, then reaches again.
  void carry_in_core_imports(const RepoFacts& facts);
  std::optional<size_t> resolve(const ImportFact& fact) const;
  std::optional<size_t> resolve_index(const std::string& path, const std::string& module, int level,
                                      std::string* rest) const;

  std::vector<ModuleNode> nodes_;
  std::map<std::string, size_t> by_path_;
  std::map<std::string, std::vector<size_t>> by_name_;  // dotted name -> nodes (several roots may clash)
  std::map<std::string, size_t> extensions_;            // extension module name -> node
  std::map<std::string, std::pair<int, int>> main_blocks_;
  std::vector<Component> components_;
  std::map<std::string, Role> role_overrides_;
  std::set<std::string> package_tops_;     // `pkg`, `src/pkg`, `lib/pkg`
  std::set<std::string> package_parents_;  // folders that hold package tops: `src`, `lib`
  std::set<std::string> package_dirs_;     // every folder with an `__init__.py`
  std::set<std::string> entry_paths_;      // files the manifests install as commands or the README runs
  std::map<std::string, std::string> imported_by_core_;  // module outside the core's folders -> why it is core
  std::shared_ptr<CallGraph> graph_;
  std::vector<EvidenceFact> evidence_;
  bool collection_ = false;
};

}  // namespace mpsready
