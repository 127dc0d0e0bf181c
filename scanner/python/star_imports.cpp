#include "python/star_imports.h"

#include <deque>
#include <optional>
#include <set>

#include <re2/re2.h>

#include "engine/file_reader.h"
#include "python/import_map.h"
#include "python/string_literal.h"

namespace mpsready {
namespace {

namespace fs = std::filesystem;

// What one star-imported module binds by itself, and which modules it star-imports in turn.
struct ModuleBindings {
  StarBindings own;
  std::optional<std::set<std::string>> all;  // `__all__`, when the module sets it
  // Per star import, the files it may name (`x.py`, `x/__init__.py`), relative to the root.
  std::vector<std::vector<std::string>> star_children;
};

// The file a relative import names, seen from the file at `importer` (both relative to the root):
// `a/b.py` or `a/b/__init__.py`. "" when it leaves the root.
std::vector<std::string> candidate_files(const std::string& importer, const LocalStarImport& star) {
  std::string base = importer;
  for (int i = 0; i < star.level; ++i) {
    const size_t slash = base.rfind('/');
    if (slash == std::string::npos) {
      if (i + 1 < star.level || base.empty()) return {};  // above the root
      base.clear();
      continue;
    }
    base.resize(slash);
  }
  std::string module = star.module;
  for (char& c : module)
    if (c == '.') c = '/';
  const std::string stem = base.empty() ? module : module.empty() ? base : base + "/" + module;
  if (stem.empty()) return {"__init__.py"};
  if (module.empty()) return {stem + "/__init__.py"};
  return {stem + ".py", stem + "/__init__.py"};
}

void collect_all(std::string_view source, TSNode right, std::set<std::string>& all) {
  const uint32_t count = ts_node_named_child_count(right);
  for (uint32_t i = 0; i < count; ++i)
    if (auto name = string_literal_content(source, ts_node_named_child(right, i))) all.insert(*name);
}

ModuleBindings read_module(std::string_view source, TSNode root, const std::string& path) {
  const auto& f = PyFields::get();
  ModuleBindings out;
  ImportMap imports;
  // Module-level statements, also inside `if`, `try` and `with` (not in functions or classes).
  std::vector<TSNode> stack;
  for (uint32_t i = ts_node_named_child_count(root); i > 0; --i) stack.push_back(ts_node_named_child(root, i - 1));
  size_t visited = 0;
  while (!stack.empty() && ++visited < 100'000) {
    const TSNode node = stack.back();
    stack.pop_back();
    const std::string_view type = ts_node_type(node);
    if (type == "import_from_statement") {
      bool wildcard = false;
      for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i)
        wildcard = wildcard || node_is(ts_node_named_child(node, i), "wildcard_import");
      const TSNode module = ts_node_child_by_field_id(node, f.module_name);
      if (wildcard && node_is(module, "relative_import")) {
        for (const LocalStarImport& star : local_star_imports(node_text(source, node)))
          out.star_children.push_back(candidate_files(path, star));
      } else if (!wildcard) {
        imports.add_statement(source, node);
      }
    } else if (type == "import_statement") {
      imports.add_statement(source, node);
    } else if (type == "expression_statement") {
      const TSNode assign = ts_node_named_child(node, 0);
      if ((node_is(assign, "assignment") || node_is(assign, "augmented_assignment")) &&
          node_text(source, ts_node_child_by_field_id(assign, f.left)) == "__all__") {
        if (!out.all) out.all.emplace();
        collect_all(source, ts_node_child_by_field_id(assign, f.right), *out.all);
      }
    } else if (type == "if_statement" || type == "try_statement" || type == "with_statement" ||
               type == "elif_clause" || type == "else_clause" || type == "except_clause" ||
               type == "finally_clause" || type == "block") {
      for (uint32_t i = ts_node_named_child_count(node); i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
    }
  }
  for (const auto& [local, qualified] : imports.bindings())
    out.own[local] = {qualified, imports.binds_module(local)};
  return out;
}

bool exported(const ModuleBindings& module, const std::string& name) {
  return module.all ? module.all->count(name) != 0 : !name.empty() && name[0] != '_';
}

}  // namespace

std::vector<LocalStarImport> local_star_imports(std::string_view code) {
  static const RE2 star(R"((?m)^[ \t]*from[ \t]+(\.+)[ \t]*([A-Za-z_][\w.]*)?[ \t]+import[ \t]+\*)");
  std::vector<LocalStarImport> out;
  re2::StringPiece rest(code.data(), code.size());
  std::string dots, module;
  while (RE2::FindAndConsume(&rest, star, &dots, &module))
    out.push_back({static_cast<int>(dots.size()), module});
  return out;
}

StarBindings star_bindings(const fs::path& root, const std::string& path,
                           const std::vector<LocalStarImport>& stars, PythonParser& parser,
                           const StarLimits& limits) {
  // Every module reachable through star imports, each read once: an explicit worklist, so a
  // chain or cycle of star imports costs one read per module and no recursion.
  std::map<std::string, ModuleBindings> modules;
  std::set<std::string> unreadable;
  std::deque<std::vector<std::string>> worklist;
  const auto load = [&](const std::vector<std::string>& alternatives) -> std::optional<std::string> {
    for (const std::string& file : alternatives) {
      if (modules.count(file)) return file;
      if (unreadable.count(file) || modules.size() >= limits.max_modules) continue;
      ReadResult read = read_file_beneath(root, file, limits.max_file_size);
      TreePtr tree = read.bytes ? parser.parse(*read.bytes, limits.parse_timeout_micros) : nullptr;
      if (!tree) {
        unreadable.insert(file);
        continue;
      }
      ModuleBindings bindings = read_module(*read.bytes, ts_tree_root_node(tree.get()), file);
      for (const auto& child : bindings.star_children) worklist.push_back(child);
      modules.emplace(file, std::move(bindings));
      return file;
    }
    return std::nullopt;
  };
  std::vector<std::string> direct;
  for (const LocalStarImport& star : stars)
    if (const auto file = load(candidate_files(path, star))) direct.push_back(*file);
  while (!worklist.empty()) {
    load(worklist.front());
    worklist.pop_front();
  }
  // The module a star import names: the first of its alternatives that was read.
  const auto named = [&](const std::vector<std::string>& alternatives) -> const std::string* {
    for (const std::string& file : alternatives)
      if (modules.count(file)) return &file;
    return nullptr;
  };
  // What each module exports: its own public bindings and what its star imports bring, filtered by
  // its `__all__`. Names only grow, so this settles within one round per module.
  std::map<std::string, StarBindings> exports;
  for (size_t round = 0; round <= modules.size(); ++round) {
    bool changed = false;
    for (const auto& entry : modules) {
      // Named references, not structured bindings: a lambda below captures them.
      const std::string& file = entry.first;
      const auto& module = entry.second;
      StarBindings& out = exports[file];
      const auto add = [&](const std::string& name, const StarBinding& binding) {
        if (exported(module, name) && out.emplace(name, binding).second) changed = true;
      };
      for (const auto& [name, binding] : module.own) add(name, binding);
      for (const auto& alternatives : module.star_children)
        if (const std::string* child = named(alternatives))
          for (const auto& [name, binding] : StarBindings(exports[*child])) add(name, binding);
    }
    if (!changed) break;
  }
  StarBindings out;
  for (const std::string& file : direct)
    for (const auto& [name, binding] : exports[file]) out.emplace(name, binding);
  return out;
}

}  // namespace mpsready
