#include "fix/import_tidy.h"

#include <algorithm>

#include "python/ts_python.h"

namespace mpsready {

namespace {

struct ImportedName {
  std::string name;   // the name bound: `autocast`, or the alias of `autocast as ac`
  TSNode clause;      // the `dotted_name` or `aliased_import` in the statement
};

bool inside_rewrite(const std::vector<Edit>& kept, uint32_t start, uint32_t end) {
  return std::any_of(kept.begin(), kept.end(), [&](const Edit& e) {
    return !e.binding && e.start <= start && end <= e.end && e.start < e.end;
  });
}

// Every identifier node equal to `name` outside `skip` (the import statement itself), walked with
// an explicit stack. False as soon as one lies outside the rewritten spans; also false when the
// walk meets `__all__` (a name listed there is exported, read by others).
bool read_only_in_rewrites(std::string_view text, TSNode root, TSNode skip, std::string_view name,
                           const std::vector<Edit>& kept) {
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    const TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_eq(n, skip)) continue;
    if (node_is(n, "identifier")) {
      const std::string_view word = node_text(text, n);
      if (word == "__all__") return false;
      if (word == name && !inside_rewrite(kept, ts_node_start_byte(n), ts_node_end_byte(n))) return false;
      continue;
    }
    if (node_is(n, "string")) {
      // `getattr(module, "autocast")`: a string that is the name may be a use of it.
      const std::string_view s = node_text(text, n);
      const std::string dq = "\"" + std::string(name) + "\"", sq = "'" + std::string(name) + "'";
      if (s.ends_with(dq) || s.ends_with(sq)) return false;
    }
    for (uint32_t i = ts_node_named_child_count(n); i-- > 0;) stack.push_back(ts_node_named_child(n, i));
  }
  return true;
}

// The byte range of the whole line(s) of a simple statement, its newline included.
std::pair<uint32_t, uint32_t> whole_lines(std::string_view text, TSNode statement) {
  uint32_t start = ts_node_start_byte(statement), end = ts_node_end_byte(statement);
  while (start > 0 && text[start - 1] != '\n') --start;
  while (end < text.size() && text[end] != '\n') ++end;
  if (end < text.size()) ++end;
  return {start, end};
}

// Whether the statement stands alone on its lines (no `;` neighbour, nothing but a comment after).
bool alone(std::string_view text, TSNode statement) {
  uint32_t start = ts_node_start_byte(statement);
  while (start > 0 && text[start - 1] != '\n') {
    --start;
    if (text[start] != ' ' && text[start] != '\t') return false;
  }
  for (size_t i = ts_node_end_byte(statement); i < text.size() && text[i] != '\n'; ++i) {
    if (text[i] == '#') break;
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r') return false;
  }
  return true;
}

}  // namespace

std::vector<Edit> retire_unused_imports(const std::string& path, std::string_view text, const std::vector<Edit>& kept,
                                        const std::vector<RetiredModule>& modules) {
  std::vector<Edit> out;
  if (modules.empty()) return out;
  PythonParser parser;
  const TreePtr tree = parser.parse(text, /*timeout_micros=*/10'000'000);
  if (!tree) return out;
  const TSNode root = ts_tree_root_node(tree.get());
  if (ts_node_has_error(root)) return out;
  const PyFields& f = PyFields::get();
  // Statements at the top level of the module or of a function's body, whose scope is that module
  // or function; an import under `try`, `if` or `with` is left as it is (it may be a fallback).
  std::vector<std::pair<TSNode, TSNode>> statements;  // (statement, the scope its names live in)
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    const TSNode n = stack.back();
    stack.pop_back();
    const bool module = ts_node_eq(n, root);
    const bool function_body = node_is(n, "block") && node_is(ts_node_parent(n), "function_definition");
    for (uint32_t i = ts_node_named_child_count(n); i-- > 0;) {
      const TSNode child = ts_node_named_child(n, i);
      if ((module || function_body) && node_is(child, "import_from_statement"))
        statements.emplace_back(child, module ? root : ts_node_parent(n));
      else
        stack.push_back(child);
    }
  }
  std::sort(statements.begin(), statements.end(), [](const auto& a, const auto& b) {
    return ts_node_start_byte(a.first) < ts_node_start_byte(b.first);
  });
  for (const auto& [statement, scope] : statements) {
    const std::string_view module = node_text(text, ts_node_child_by_field_id(statement, f.module_name));
    const auto retired = std::find_if(modules.begin(), modules.end(), [&](const RetiredModule& m) { return m.module == module; });
    if (retired == modules.end() || !alone(text, statement)) continue;
    std::vector<ImportedName> names;
    bool star = false;
    for (uint32_t k = 0; k < ts_node_named_child_count(statement); ++k) {
      const TSNode child = ts_node_named_child(statement, k);
      if (ts_node_eq(child, ts_node_child_by_field_id(statement, f.module_name))) continue;
      if (node_is(child, "wildcard_import")) star = true;
      if (node_is(child, "dotted_name")) names.push_back({std::string(node_text(text, child)), child});
      if (node_is(child, "aliased_import")) {
        const TSNode alias = ts_node_child_by_field_id(child, f.alias);
        if (!ts_node_is_null(alias)) names.push_back({std::string(node_text(text, alias)), child});
      }
    }
    if (star || names.empty()) continue;
    std::vector<std::string> keep;
    for (const ImportedName& n : names)
      if (!read_only_in_rewrites(text, scope, statement, n.name, kept)) keep.emplace_back(node_text(text, n.clause));
    if (keep.size() == names.size()) continue;
    Edit e;
    e.path = path;
    e.rule = retired->rule;
    const TSPoint at = ts_node_start_point(statement);
    e.location = {static_cast<int>(at.row) + 1, static_cast<int>(at.column) + 1, static_cast<int>(at.row) + 1,
                  static_cast<int>(at.column) + 1, 0};
    e.tidies_import = true;
    if (keep.empty()) {
      auto [start, end] = whole_lines(text, statement);
      // The first statement of a function's body takes the blank lines after it along: the body
      // does not begin with a blank line.
      if (!ts_node_eq(scope, root) && ts_node_eq(ts_node_named_child(ts_node_parent(statement), 0), statement))
        while (end < text.size() && (text[end] == '\n' || (text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n')))
          end += text[end] == '\r' ? 2 : 1;
      e.start = start;
      e.end = end;
      e.replacement = "";
    } else {
      e.start = ts_node_start_byte(statement);
      e.end = ts_node_end_byte(statement);
      std::string list;
      for (const std::string& k : keep) list += (list.empty() ? "" : ", ") + k;
      e.replacement = "from " + std::string(module) + " import " + list;
    }
    e.original = std::string(text.substr(e.start, e.end - e.start));
    e.note = "the import of `" + std::string(module) + "` names nothing the fixed file reads";
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace mpsready
