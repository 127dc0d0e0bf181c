#include "model/repo_model.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <set>

#include "model/call_graph.h"
#include "model/core_imports.h"
#include "model/path_roles.h"

namespace mpsready {
namespace {

std::string dir_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string first_segment(const std::string& path) {
  const size_t slash = path.find('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// fnmatch as setuptools applies it to dotted names: `*` matches anything, dots included.
bool dotted_glob_match(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return name.empty();
  if (pattern.front() == '*') {
    for (size_t i = 0; i <= name.size(); ++i)
      if (dotted_glob_match(pattern.substr(1), name.substr(i))) return true;
    return false;
  }
  return !name.empty() && (pattern.front() == '?' || pattern.front() == name.front()) &&
         dotted_glob_match(pattern.substr(1), name.substr(1));
}

std::string join(const std::string& dir, const std::string& rest) {
  return dir.empty() ? rest : rest.empty() ? dir : dir + "/" + rest;
}

size_t common_prefix(const std::string& a, const std::string& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

}  // namespace

std::string_view to_string(Role role) {
  switch (role) {
    case Role::core: return "core";
    case Role::entry_point: return "entry-point";
    case Role::build: return "build";
    case Role::tests: return "tests";
    case Role::examples: return "examples";
    case Role::benchmarks: return "benchmarks";
    case Role::docs: return "docs";
    case Role::tools: return "tools";
    case Role::research: return "research";
    case Role::vendored: return "vendored";
    case Role::notebooks: return "notebooks";
  }
  return "core";
}

std::optional<Role> parse_role(std::string_view text) {
  for (Role r : {Role::core, Role::entry_point, Role::build, Role::tests, Role::examples, Role::benchmarks, Role::docs,
                 Role::tools, Role::research, Role::vendored, Role::notebooks})
    if (to_string(r) == text) return r;
  return std::nullopt;
}

bool is_peripheral(Role role) { return role != Role::core && role != Role::entry_point && role != Role::build; }

std::string_view to_string(Reach reach) {
  switch (reach) {
    case Reach::unconditional: return "module level";
    case Reach::lazy: return "lazy";
    case Reach::optional: return "optional";
    case Reach::guarded: return "guarded";
    case Reach::none: return "not reached";
  }
  return "not reached";
}

RepoModel::RepoModel(const RepoFacts& facts, const std::vector<std::string>& scanned_paths, const ModelConfig& config)
    : role_overrides_(config.roles), evidence_(facts.evidence) {
  for (const ModuleFact& m : facts.modules)
    if (m.main_line) main_blocks_[m.path] = {m.main_line, m.main_end_line};
  index_modules(facts);
  index_entry_points(facts);
  build_components(scanned_paths, config);
  compute_reach(facts);
  carry_in_core_imports(facts);
  std::sort(evidence_.begin(), evidence_.end(), [](const EvidenceFact& a, const EvidenceFact& b) {
    return std::tie(a.kind, a.path, a.cell, a.line) < std::tie(b.kind, b.path, b.cell, b.line);
  });
}

RepoModel::RepoModel(const RepoFacts& facts, IndexOnly) { index_modules(facts); }

RepoModel RepoModel::module_index(const RepoFacts& facts) { return RepoModel(facts, IndexOnly{}); }

void RepoModel::index_modules(const RepoFacts& facts) {
  std::set<std::string> files(facts.python_files.begin(), facts.python_files.end());
  const auto is_package_dir = [&](const std::string& dir) {
    return !dir.empty() && files.count(dir + "/__init__.py");
  };
  for (const std::string& path : files) {
    if (!path.ends_with(".py")) continue;  // stubs (.pyi) are not run
    ModuleNode node;
    node.path = path;
    // The package name: up through directories that are packages.
    std::string stem = path.substr(0, path.size() - 3);
    std::string dir = dir_of(path);
    std::string name = stem.substr(stem.rfind('/') + 1);
    const bool is_init = name == "__init__";
    name = is_init ? "" : name;
    while (is_package_dir(dir)) {
      const std::string last = dir.substr(dir.rfind('/') + 1);
      name = name.empty() ? last : last + "." + name;
      dir = dir_of(dir);
    }
    node.name = name;
    const size_t index = nodes_.size();
    by_path_[path] = index;
    if (!name.empty()) by_name_[name].push_back(index);
    // A namespace-package or `src/` spelling of the same file (`util.misc`, `src.pkg.mod`).
    std::string dotted = is_init ? dir_of(path) : stem;
    std::replace(dotted.begin(), dotted.end(), '/', '.');
    if (!dotted.empty() && dotted != name) by_name_[dotted].push_back(index);
    if (dotted.rfind("src.", 0) == 0 && dotted.substr(4) != name) by_name_[dotted.substr(4)].push_back(index);
    nodes_.push_back(std::move(node));
  }
  for (const std::string& path : files)
    if (path.ends_with("/__init__.py")) package_dirs_.insert(dir_of(path));
  package_parents_.insert("src");
  if (declared_package_tops(facts)) {
    index_extensions(facts);
    return;
  }
  // Installable packages: folders at the top (or under src/) with an __init__.py.
  for (const std::string& path : files) {
    const size_t slash = path.find('/');
    if (slash != std::string::npos && path.compare(slash, std::string::npos, "/__init__.py") == 0)
      package_tops_.insert(path.substr(0, slash));
    if (path.rfind("src/", 0) == 0) {
      const size_t second = path.find('/', 4);
      if (second != std::string::npos && path.compare(second, std::string::npos, "/__init__.py") == 0)
        package_tops_.insert(path.substr(0, second));
    }
  }
  // A `src/` layout installs what is under src/; packages beside it are tooling.
  if (std::any_of(package_tops_.begin(), package_tops_.end(), [](const std::string& t) { return t.rfind("src/", 0) == 0; }))
    std::erase_if(package_tops_, [](const std::string& t) { return t.rfind("src/", 0) != 0; });
  index_extensions(facts);
}

void RepoModel::index_extensions(const RepoFacts& facts) {
  for (const ExtensionFact& ext : facts.extensions) {
    if (extensions_.count(ext.name)) continue;
    ModuleNode node;
    node.name = ext.name;
    extensions_[ext.name] = nodes_.size();
    by_name_[ext.name].push_back(nodes_.size());
    // `import fused_ext` for an extension named `pkg.fused_ext` (installed as a submodule).
    if (const size_t dot = ext.name.rfind('.'); dot != std::string::npos)
      by_name_[ext.name.substr(dot + 1)].push_back(nodes_.size());
    nodes_.push_back(std::move(node));
  }
}

bool RepoModel::declared_package_tops(const RepoFacts& facts) {
  // Per manifest: where each package's folder is, which packages it names, which it searches.
  struct Manifest {
    std::map<std::string, std::string> dirs;  // package name ("" for all) -> folder
    std::set<std::string> names;
    std::vector<std::string> finds, include, exclude;
  };
  std::map<std::string, Manifest> manifests;
  // Only the manifests of the core nearest the root say what the repository installs (a
  // sub-project's setup.py speaks for its own folder only).
  const auto depth = [](const std::string& path) { return std::count(path.begin(), path.end(), '/'); };
  long shallowest = -1;
  // A manifest's requirements say nothing of its packages (core_requirements.h reads them).
  const auto lists_packages = [](const PackageFact& p) {
    return p.kind.starts_with("package") && p.kind != "package-requires";
  };
  for (const PackageFact& p : facts.packages)
    if (lists_packages(p) && !is_peripheral(conventional_role(p.path)) && (shallowest < 0 || depth(p.path) < shallowest))
      shallowest = depth(p.path);
  for (const PackageFact& p : facts.packages) {
    if (!lists_packages(p) || is_peripheral(conventional_role(p.path)) || depth(p.path) != shallowest) continue;
    Manifest& m = manifests[p.path];
    const std::string base = dir_of(p.path);
    if (p.kind == "package") m.names.insert(p.text);
    else if (p.kind == "package-find") m.finds.push_back(join(base, p.text));
    else if (p.kind == "package-include") m.include.push_back(p.text);
    else if (p.kind == "package-exclude") m.exclude.push_back(p.text);
    else if (p.kind == "package-dir") {
      const size_t eq = p.text.find('=');
      m.dirs[p.text.substr(0, eq)] = join(base, p.text.substr(eq + 1));
    }
  }
  std::set<std::string> tops;
  for (const auto& entry : manifests) {
    const Manifest& m = entry.second;
    const std::string base = dir_of(entry.first);
    // A package's folder: through the longest package_dir entry that is its name or a parent's.
    const auto folder_of = [&](const std::string& name) {
      for (std::string prefix = name;; prefix = prefix.substr(0, prefix.rfind('.'))) {
        if (const auto it = m.dirs.find(prefix); it != m.dirs.end()) {
          std::string rest = name.substr(prefix.size());
          std::replace(rest.begin(), rest.end(), '.', '/');
          return it->second + rest;
        }
        if (prefix.find('.') == std::string::npos) break;
      }
      std::string rest = name;
      std::replace(rest.begin(), rest.end(), '.', '/');
      const auto root = m.dirs.find("");
      return join(root == m.dirs.end() ? base : root->second, rest);
    };
    std::map<std::string, std::string> declared;  // name -> folder
    for (const std::string& name : m.names) declared[name] = folder_of(name);
    for (const std::string& where : m.finds) {
      // find_packages: folders with an __init__.py whose parents up to `where` have one too,
      // then include and exclude on the dotted names.
      for (const std::string& dir : package_dirs_) {
        if (!(where.empty() || dir.rfind(where + "/", 0) == 0)) continue;
        std::string rel = where.empty() ? dir : dir.substr(where.size() + 1);
        bool chain = true;
        for (std::string up = dir_of(dir); chain && up.size() > where.size(); up = dir_of(up))
          chain = package_dirs_.count(up) > 0;
        if (!chain || rel.empty()) continue;
        std::string name = rel;
        std::replace(name.begin(), name.end(), '/', '.');
        const auto matches = [&](const std::vector<std::string>& patterns) {
          return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& g) { return dotted_glob_match(g, name); });
        };
        if ((!m.include.empty() && !matches(m.include)) || matches(m.exclude)) continue;
        declared[name] = join(where, rel);
      }
    }
    // The tops: declared packages whose parent package is not declared.
    for (const auto& [name, dir] : declared) {
      const size_t dot = name.rfind('.');
      if (dot != std::string::npos && declared.count(name.substr(0, dot))) continue;
      if (!package_dirs_.count(dir)) continue;  // nothing of it here
      tops.insert(dir);
      // Its modules go by the declared name whatever the folder is called (`{"kit": "source"}`).
      for (auto it = by_path_.lower_bound(dir); it != by_path_.end() && it->first.rfind(dir, 0) == 0; ++it) {
        const std::string& file = it->first;
        if (file.rfind(dir + "/", 0) != 0) continue;
        std::string rest = file.substr(dir.size(), file.size() - dir.size() - 3);  // "/a/b" or "/__init__"
        if (rest.ends_with("/__init__")) rest.resize(rest.size() - 9);
        std::replace(rest.begin(), rest.end(), '/', '.');
        const std::string alias = name + rest;
        auto& named = by_name_[alias];
        if (std::find(named.begin(), named.end(), it->second) == named.end()) named.push_back(it->second);
      }
    }
  }
  if (tops.empty()) return false;
  package_tops_ = std::move(tops);
  for (const std::string& top : package_tops_)
    if (const std::string parent = dir_of(top); !parent.empty()) package_parents_.insert(parent);
  return true;
}

std::string RepoModel::component_prefix(const std::string& path) const {
  std::string top = first_segment(path);
  // Under a folder that holds packages, each package (or folder) is a component of its own.
  for (const std::string& parent : package_parents_) {
    if (path.rfind(parent + "/", 0) != 0 || parent.size() < top.size()) continue;
    const size_t next = path.find('/', parent.size() + 1);
    if (next != std::string::npos) top = path.substr(0, next);
  }
  return top;
}

void RepoModel::index_entry_points(const RepoFacts& facts) {
  for (const EntryPointFact& e : facts.entry_points) {
    // Only a manifest of the core installs the repository's commands (an example's setup.py
    // installs the example's).
    if (is_peripheral(conventional_role(e.path))) continue;
    // A program the README runs is the repository's, but a test, a benchmark, a docs build or
    // vendored code it runs checks or measures the code rather than uses it.
    std::string name = e.path;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool readme = name.rfind("readme", 0) == 0;
    const auto counts = [&](const std::string& path) {
      if (!readme) return true;
      const Role role = conventional_role(path);
      return role != Role::tests && role != Role::benchmarks && role != Role::docs && role != Role::vendored;
    };
    // A file the README runs (`python tools/train.py`).
    if (!e.script.empty()) {
      if (by_path_.count(e.script) && counts(e.script)) entry_paths_.insert(e.script);
      continue;
    }
    // `python -m pkg` runs the package's `__main__`.
    auto it = by_name_.find(e.module + ".__main__");
    if (it == by_name_.end()) it = by_name_.find(e.module);
    if (it == by_name_.end()) continue;
    for (const size_t i : it->second)
      if (!nodes_[i].path.empty() && counts(nodes_[i].path)) entry_paths_.insert(nodes_[i].path);
  }
}

std::optional<size_t> RepoModel::resolve(const ImportFact& fact) const {
  return resolve_index(fact.path, fact.module, fact.level, nullptr);
}

std::optional<RepoModel::NameTarget> RepoModel::resolve_name(const std::string& path, const std::string& module,
                                                             int level) const {
  std::string rest;
  const auto index = resolve_index(path, module, level, &rest);
  if (!index || nodes_[*index].path.empty()) return std::nullopt;
  return NameTarget{nodes_[*index].path, rest};
}

std::optional<size_t> RepoModel::resolve_index(const std::string& path, const std::string& module, int level,
                                               std::string* rest) const {
  struct {
    const std::string& path;
    const std::string& module;
    int level;
  } fact{path, module, level};
  std::string name = fact.module;
  if (fact.level > 0) {
    const auto from = by_path_.find(fact.path);
    if (from == by_path_.end()) return std::nullopt;
    std::string package = nodes_[from->second].name;
    const bool is_init = fact.path.ends_with("/__init__.py") || fact.path == "__init__.py";
    int up = is_init ? fact.level - 1 : fact.level;
    for (; up > 0 && !package.empty(); --up) {
      const size_t dot = package.rfind('.');
      package = dot == std::string::npos ? "" : package.substr(0, dot);
    }
    if (package.empty()) {
      // A script directory: `from .x import y` beside a file that is no package member.
      const std::string dir = dir_of(fact.path);
      package = dir;
      std::replace(package.begin(), package.end(), '/', '.');
    }
    name = package.empty() ? name : name.empty() ? package : package + "." + name;
  }
  // `from a.b import c`: c may be a module or a name in a.b; try the longest first.
  const std::string full = name;
  while (!name.empty()) {
    if (const auto it = by_name_.find(name); it != by_name_.end()) {
      // Several files may carry one name (scripts in two example folders): the nearest.
      size_t best = it->second.front(), best_len = 0;
      for (const size_t i : it->second) {
        const size_t len = common_prefix(nodes_[i].path, fact.path);
        if (len > best_len) best = i, best_len = len;
      }
      if (nodes_[best].path == fact.path) return std::nullopt;
      if (rest) *rest = name.size() < full.size() ? full.substr(name.size() + 1) : "";
      return best;
    }
    const size_t dot = name.rfind('.');
    if (dot == std::string::npos) break;
    name.resize(dot);
  }
  return std::nullopt;
}

Role RepoModel::role_of(const std::string& path) const {
  // The longest configured prefix wins over conventions.
  const Role* configured = nullptr;
  size_t longest = 0;
  for (const auto& [prefix, role] : role_overrides_) {
    const bool match = path == prefix || (path.rfind(prefix, 0) == 0 && (prefix.back() == '/' || path[prefix.size()] == '/'));
    if (match && prefix.size() >= longest) configured = &role, longest = prefix.size();
  }
  if (configured) return *configured;
  if (imported_by_core_.count(path)) return Role::core;
  // A command the manifest installs runs as a program wherever its file lives (`pkg/scripts/cli.py`).
  if (entry_paths_.count(path)) return Role::entry_point;
  const Role role = conventional_role(path);
  if (role != Role::core) return role;
  // Beside an installable package, a folder of scripts that is no package is tooling around it
  // (`method_comparison/run.py`, its requirements.txt); compiled sources keep their place.
  if (!package_tops_.empty() && path.find('/') != std::string::npos &&
      (path.ends_with(".py") || path.ends_with(".ipynb") || path.ends_with(".txt"))) {
    const bool in_package = std::any_of(package_tops_.begin(), package_tops_.end(),
                                        [&](const std::string& top) { return path.rfind(top + "/", 0) == 0; });
    if (!in_package) return Role::tools;
  }
  // A script at the root that runs as a program is an entry point.
  if (path.find('/') == std::string::npos && main_blocks_.count(path)) return Role::entry_point;
  return role;
}

void RepoModel::build_components(const std::vector<std::string>& paths, const ModelConfig& config) {
  std::set<std::string> prefixes(config.components.begin(), config.components.end());
  bool has_package = false, has_root_code = false;
  std::set<std::string> top_dirs_with_code;
  for (const auto& [path, index] : by_path_) {
    (void)index;
    const std::string top = first_segment(path);
    if (top.empty()) {
      has_root_code = true;
    } else if (is_peripheral(conventional_role(path))) {
      continue;
    } else {
      top_dirs_with_code.insert(top);
    }
  }
  // No installable package and no code at the root, but several folders of scripts: a
  // collection of independent examples, each a component.
  has_package = !package_tops_.empty();
  collection_ = !has_package && !has_root_code && top_dirs_with_code.size() >= 2;
  for (const std::string& path : paths)
    if (std::string top = component_prefix(path); !top.empty()) prefixes.insert(top);
  components_.push_back({"(root)", "", Role::entry_point});
  for (const std::string& prefix : prefixes) {
    Role role = role_of(prefix + "/x");
    if (role == Role::entry_point) role = Role::core;
    // A package beside the installed ones that the manifests leave out is tooling around them.
    if (role == Role::core && package_dirs_.count(prefix) && role_of(prefix + "/__init__.py") == Role::tools)
      role = Role::tools;
    components_.push_back({prefix, prefix, role});
  }
}

const Component& RepoModel::component_of(const std::string& path) const {
  const Component* best = &components_.front();
  for (const Component& c : components_)
    if (!c.prefix.empty() && path.rfind(c.prefix + "/", 0) == 0 && c.prefix.size() > best->prefix.size()) best = &c;
  return *best;
}

void RepoModel::compute_reach(const RepoFacts& facts) {
  struct Edge {
    size_t from, to;
    int line;
    Reach kind;
    std::string detail;
  };
  std::vector<Edge> edges;
  const auto importer_counts = [&](const std::string& path) {
    return by_path_.count(path) && !is_peripheral(role_of(path));
  };
  for (const ImportFact& fact : facts.imports) {
    if (fact.cell || !importer_counts(fact.path)) continue;
    const size_t from = by_path_.at(fact.path);
    const auto to = resolve(fact);
    if (!to) continue;
    // The `__main__` block of a library module is its demo: importing the module never runs it.
    const bool script = role_of(fact.path) == Role::entry_point || nodes_[from].name.find('.') == std::string::npos;
    if (fact.in_main_block && !script) continue;
    Edge e{from, *to, fact.line, Reach::unconditional, ""};
    if (fact.guarded) e.kind = Reach::guarded, e.detail = "behind a guard";
    else if (!fact.branch.empty()) e.kind = Reach::optional, e.detail = "if " + fact.branch;
    else if (fact.lazy) e.kind = Reach::lazy, e.detail = "lazy in " + fact.function;
    if (fact.lazy && e.kind != Reach::lazy) e.detail += ", in " + fact.function;
    edges.push_back(std::move(e));
  }
  // A JIT build happens where it is called: the declaring module reaches the extension there.
  for (const ExtensionFact& ext : facts.extensions) {
    if (!ext.jit || !importer_counts(ext.path)) continue;
    Edge e{by_path_.at(ext.path), extensions_.at(ext.name), ext.line, Reach::unconditional, "JIT build"};
    if (ext.guarded) e.kind = Reach::guarded, e.detail = "JIT build behind a guard";
    else if (!ext.branch.empty()) e.kind = Reach::optional, e.detail = "JIT build if " + ext.branch;
    else if (ext.lazy) e.kind = Reach::lazy, e.detail = "JIT build, lazy";
    edges.push_back(std::move(e));
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return std::tie(a.from, a.line, a.to) < std::tie(b.from, b.line, b.to);
  });
  std::vector<std::vector<const Edge*>> out(nodes_.size());
  std::vector<size_t> in_degree(nodes_.size(), 0);
  for (const Edge& e : edges) {
    out[e.from].push_back(&e);
    if (e.from != e.to) ++in_degree[e.to];
  }
  // Roots: entry points, package `__init__`s, and modules of the core that nothing in the
  // repository imports (public API a user imports directly). Extensions are never roots.
  for (size_t i = 0; i < nodes_.size(); ++i) {
    ModuleNode& n = nodes_[i];
    if (n.path.empty() || is_peripheral(role_of(n.path))) continue;
    const bool init = n.path.ends_with("__init__.py") && n.name.find('.') == std::string::npos;
    if (role_of(n.path) == Role::entry_point || init || in_degree[i] == 0) {
      n.root = true;
      n.reach = Reach::unconditional;
    }
  }
  // Best reach = the path whose weakest edge is strongest: widen the edges allowed one kind at
  // a time, breadth first within each (shortest chain).
  for (int level = 0; level <= static_cast<int>(Reach::guarded); ++level) {
    std::deque<size_t> queue;
    for (size_t i = 0; i < nodes_.size(); ++i)
      if (static_cast<int>(nodes_[i].reach) <= level) queue.push_back(i);
    while (!queue.empty()) {
      const size_t at = queue.front();
      queue.pop_front();
      for (const Edge* e : out[at]) {
        if (static_cast<int>(e->kind) > level || nodes_[e->to].reach != Reach::none) continue;
        ModuleNode& next = nodes_[e->to];
        next.reach = static_cast<Reach>(level);
        next.chain = nodes_[at].chain;
        next.chain.push_back({nodes_[at].path, e->line, e->kind, e->detail});
        queue.push_back(e->to);
      }
    }
  }
}

void RepoModel::carry_in_core_imports(const RepoFacts& facts) {
  imported_by_core_ = modules_imported_by_core(facts, *this, &graph_);
  if (imported_by_core_.empty()) return;
  // The modules carried in import others in turn, now as the core: reach everything again.
  for (ModuleNode& n : nodes_) {
    n.root = false;
    n.reach = Reach::none;
    n.chain.clear();
  }
  compute_reach(facts);
  // The graph's edges do not depend on roles; which of them come from the core does.
  if (graph_) graph_->count_core_callers(*this);
}

const std::string* RepoModel::imported_by_core(const std::string& path) const {
  const auto it = imported_by_core_.find(path);
  return it == imported_by_core_.end() ? nullptr : &it->second;
}

const ModuleNode* RepoModel::module_of(const std::string& path) const {
  const auto it = by_path_.find(path);
  return it == by_path_.end() ? nullptr : &nodes_[it->second];
}

const ModuleNode* RepoModel::extension(const std::string& name) const {
  const auto it = extensions_.find(name);
  return it == extensions_.end() ? nullptr : &nodes_[it->second];
}

bool RepoModel::in_demo_block(const std::string& path, int line) const {
  const auto it = main_blocks_.find(path);
  if (it == main_blocks_.end() || line < it->second.first || line > it->second.second) return false;
  const ModuleNode* node = module_of(path);
  // Only a package member's `__main__` block is a demo; a script's is what it does.
  return node && node->name.find('.') != std::string::npos && !path.ends_with("__main__.py");
}

bool RepoModel::is_local_module(const std::string& module) const {
  // A Python file of the repository (a compiled extension is the repository's too, but importing
  // it is what the extension rules are about).
  const std::string top = module.substr(0, module.find('.'));
  for (auto it = by_name_.lower_bound(top); it != by_name_.end() && (it->first == top || it->first.rfind(top + ".", 0) == 0); ++it)
    for (const size_t i : it->second)
      if (!nodes_[i].path.empty()) return true;
  return false;
}

std::string RepoModel::chain_text(const ModuleNode& node) const {
  std::string out;
  for (const ReachStep& step : node.chain) {
    out += step.from + ":" + std::to_string(step.line);
    if (!step.detail.empty()) out += " (" + step.detail + ")";
    out += " → ";
  }
  return out + (node.path.empty() ? "extension `" + node.name + "`" : node.path);
}

}  // namespace mpsready
