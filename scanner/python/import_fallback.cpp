#include "python/import_fallback.h"

#include <unordered_map>

#include "python/guard_map.h"
#include "python/import_map.h"
#include "python/python_file.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

constexpr size_t kMaxNodes = 4096;  // a bound on hostile handlers and bodies

bool only_trivial(std::string_view source, TSNode block) {
  // raise, pass, a docstring, `return` / `return None`.
  const uint32_t count = ts_node_named_child_count(block);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode stmt = ts_node_named_child(block, i);
    if (node_is(stmt, "raise_statement") || node_is(stmt, "pass_statement") || node_is(stmt, "comment")) continue;
    if (node_is(stmt, "expression_statement") && node_is(ts_node_named_child(stmt, 0), "string")) continue;
    if (node_is(stmt, "return_statement") &&
        (ts_node_named_child_count(stmt) == 0 || node_text(source, ts_node_named_child(stmt, 0)) == "None"))
      continue;
    return false;
  }
  return true;
}

// A statement of the handler that gives the program something to use instead: another import,
// a real function or class, a value that is no sentinel and no JIT build of the same code.
bool provides_alternative(std::string_view source, TSNode handler) {
  const auto& f = PyFields::get();
  std::vector<TSNode> stack{handler};
  for (size_t visited = 0; !stack.empty() && visited < kMaxNodes; ++visited) {
    const TSNode node = stack.back();
    stack.pop_back();
    const std::string_view type = ts_node_type(node);
    if (type == "import_statement" || type == "import_from_statement") return true;
    if (type == "function_definition" || type == "class_definition") {
      if (!only_trivial(source, ts_node_child_by_field_id(node, f.body))) return true;
      continue;
    }
    if (type == "assignment") {
      const TSNode right = ts_node_child_by_field_id(node, f.right);
      if (ts_node_is_null(right) || node_is(right, "none") || node_is(right, "true") || node_is(right, "false") ||
          node_is(right, "integer") || node_is(right, "string"))
        continue;
      const std::string_view text = node_text(source, right);
      if (node_is(right, "call") && (text.find("build") != std::string_view::npos || text.find("load") != std::string_view::npos))
        continue;  // building or loading the same extension another way is no alternative
      return true;
    }
    if (type == "call") continue;  // warnings, logging, print
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
  }
  return false;
}

struct Imported {
  std::string qualified;  // `apex.fp16_utils`
  std::string local;      // the name bound in the file: `fp16` for `import apex.fp16_utils as fp16`
};

// What the imports in `body` bind.
std::vector<Imported> imported_names(std::string_view source, TSNode body, const ImportMap& imports) {
  std::vector<Imported> out;
  const uint32_t start = ts_node_start_byte(body), end = ts_node_end_byte(body);
  for (const ImportSite& site : imports.sites()) {
    if (site.is_from_module || ts_node_start_byte(site.statement) < start || ts_node_end_byte(site.statement) > end)
      continue;
    const TSNode parent = ts_node_parent(site.node);
    std::string local = site.local;  // set for an import by string that is assigned
    if (local.empty() && node_is(parent, "aliased_import"))
      local = std::string(node_text(source, ts_node_child_by_field_id(parent, PyFields::get().alias)));
    else if (local.empty() && node_is(site.statement, "import_from_statement"))
      local = site.name.substr(site.name.rfind('.') + 1);
    else if (local.empty())
      local = site.name.substr(0, site.name.find('.'));
    out.push_back({site.name, local});
  }
  return out;
}

// The outermost definition (function or class) enclosing `node`, if any.
TSNode outermost_definition(TSNode node) {
  TSNode found{};
  for (int i = 0; i < 256 && !ts_node_is_null(node); ++i, node = ts_node_parent(node))
    if (node_is(node, "function_definition") || node_is(node, "class_definition")) found = node;
  return found;
}

// Inside an `if` whose condition tests the name itself or a flag the handler sets.
bool in_condition_testing(const FallbackFacts& facts, uint32_t byte, std::string_view name,
                          const std::vector<std::string>& flags) {
  const auto& f = PyFields::get();
  for (const TSNode stmt : facts.ifs) {
    const std::string_view condition = node_text(facts.source, ts_node_child_by_field_id(stmt, f.condition));
    bool tests = condition.find(name) != std::string_view::npos;
    for (const std::string& flag : flags) tests = tests || condition.find(flag) != std::string_view::npos;
    if (!tests) continue;
    if (byte >= ts_node_start_byte(stmt) && byte < ts_node_end_byte(stmt)) return true;
  }
  return false;
}

// Whether every mention of `name` (a definition's name) lies behind a CUDA check.
bool mentioned_only_guarded(const FallbackFacts& facts, std::string_view name, TSNode definition) {
  bool any = false;
  std::vector<TSNode> stack{facts.root};
  for (size_t visited = 0; !stack.empty() && visited < 200'000; ++visited) {
    const TSNode node = stack.back();
    stack.pop_back();
    if (ts_node_eq(node, definition)) continue;
    if (node_is(node, "identifier") && node_text(facts.source, node) == name) {
      any = true;
      if (!facts.cuda_guards.contains(ts_node_start_byte(node))) return false;
      continue;
    }
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
  }
  return any;
}

}  // namespace

// Names the handler sets to a constant (`HAS_APEX = False`, `ext = None`).
std::vector<std::string> handler_flags(std::string_view source, TSNode handler) {
  const auto& f = PyFields::get();
  std::vector<std::string> out;
  const uint32_t count = ts_node_named_child_count(handler);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode stmt = ts_node_named_child(handler, i);
    const TSNode assign = node_is(stmt, "expression_statement") ? ts_node_named_child(stmt, 0) : TSNode{};
    if (!node_is(assign, "assignment")) continue;
    const TSNode left = ts_node_child_by_field_id(assign, f.left);
    if (node_is(left, "identifier")) out.emplace_back(node_text(source, left));
  }
  return out;
}

bool has_working_fallback(const FallbackFacts& facts, TSNode attempt, TSNode handler) {
  if (provides_alternative(facts.source, handler)) return true;
  const auto& f = PyFields::get();
  const TSNode body = ts_node_child_by_field_id(attempt, f.body);
  const std::vector<Imported> names = imported_names(facts.source, body, facts.imports);
  // Flags the handler sets; a name the import itself binds set to None is a sentinel, no flag.
  std::vector<std::string> flags, sentinels;
  for (std::string& flag : handler_flags(facts.source, handler)) {
    bool imported = false;
    for (const Imported& n : names) imported = imported || flag == n.local;
    (imported ? sentinels : flags).push_back(std::move(flag));
  }
  // No import in the body (a JIT load, a probe call): a handler that does not raise lets the
  // program go on, and the caller decides.
  if (names.empty()) return true;
  // How the file uses what it imported: every use on a guarded path, or some use unguarded.
  bool used = false, unguarded_use = false;
  std::unordered_map<uint32_t, bool> guarded_definitions;  // per enclosing definition, computed once
  for (const NameRef& ref : facts.refs) {
    const uint32_t at = ts_node_start_byte(ref.node);
    if (ref.is_assign_target || (at >= ts_node_start_byte(attempt) && at < ts_node_end_byte(attempt))) continue;
    bool of_import = false;
    for (const Imported& i : names) {
      const std::string& n = i.qualified;
      of_import = of_import || ref.name == n || (ref.name.size() > n.size() && ref.name.compare(0, n.size(), n) == 0 && ref.name[n.size()] == '.');
    }
    if (!of_import) continue;
    used = true;
    if (facts.cuda_guards.contains(at)) continue;
    const std::string_view text = node_text(facts.source, ref.node);
    if (in_condition_testing(facts, at, text.substr(0, text.find('.')), flags)) continue;
    // Inside a function or class that the file itself only reaches behind a CUDA check.
    const TSNode definition = outermost_definition(ref.node);
    if (!ts_node_is_null(definition)) {
      const uint32_t key = ts_node_start_byte(definition);
      auto known = guarded_definitions.find(key);
      if (known == guarded_definitions.end()) {
        const std::string_view def_name = node_text(facts.source, ts_node_child_by_field_id(definition, f.name));
        known = guarded_definitions.emplace(key, mentioned_only_guarded(facts, def_name, definition)).first;
      }
      if (known->second) continue;
    }
    unguarded_use = true;
  }
  // Imported at module level only to be re-exported: other modules use it, and nothing here
  // offers another path. (Inside a function nothing can be re-exported.)
  // A probe that only sets a flag (`HAS_X = True` / `False`) leaves the choice to the flag's tests.
  if (!used) return !ts_node_is_null(outermost_definition(attempt)) || !flags.empty();
  if (!unguarded_use) return true;
  // Used unguarded: a handler that set the imported name itself to a sentinel (`ext = None`)
  // leaves calls that fail; one that only warns or sets a flag lets the code go on, unless the
  // flag is tested only to raise.
  if (!sentinels.empty()) return false;
  bool flag_tested = false, flag_tested_softly = false;
  for (const TSNode stmt : facts.ifs) {
    const std::string_view condition = node_text(facts.source, ts_node_child_by_field_id(stmt, f.condition));
    for (const std::string& flag : flags) {
      if (condition.find(flag) == std::string_view::npos) continue;
      flag_tested = true;
      if (!only_trivial(facts.source, ts_node_child_by_field_id(stmt, f.consequence))) flag_tested_softly = true;
    }
  }
  return !flag_tested || flag_tested_softly;
}

}  // namespace mpsready
