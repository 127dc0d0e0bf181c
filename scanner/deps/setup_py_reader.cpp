#include "deps/setup_py_reader.h"

#include <functional>
#include <map>

#include "deps/entry_point.h"
#include "deps/package_list.h"
#include "deps/requirement_spec.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

struct Context {
  DepsFile& file;
  std::string_view src;
  std::map<std::string, TSNode> assignments;  // module-level `NAME = <expr>`
};

// The content of a plain string literal, or nullopt (f-strings and concatenations are skipped).
std::optional<std::pair<std::string, uint32_t>> string_value(const Context& ctx, TSNode node) {
  if (!node_is(node, "string")) return std::nullopt;
  const std::string_view text = node_text(ctx.src, node);
  size_t q = 0;
  while (q < text.size() && text[q] != '"' && text[q] != '\'') {
    if (text[q] == 'f' || text[q] == 'F') return std::nullopt;
    ++q;
  }
  if (q >= text.size()) return std::nullopt;
  const size_t quote_len = text.substr(q, 3) == "\"\"\"" || text.substr(q, 3) == "'''" ? 3 : 1;
  if (text.size() < q + 2 * quote_len) return std::nullopt;
  const std::string_view content = text.substr(q + quote_len, text.size() - q - 2 * quote_len);
  return std::make_pair(std::string(content), ts_node_start_byte(node) + static_cast<uint32_t>(q + quote_len));
}

TSNode resolve(const Context& ctx, TSNode node) {
  if (node_is(node, "identifier")) {
    const auto it = ctx.assignments.find(std::string(node_text(ctx.src, node)));
    if (it != ctx.assignments.end()) return it->second;
  }
  return node;
}

void add_list(Context& ctx, TSNode list, const std::string& group, bool optional) {
  list = resolve(ctx, list);
  if (!node_is(list, "list") && !node_is(list, "tuple")) return;
  for (uint32_t i = 0; i < ts_node_named_child_count(list); ++i) {
    const auto s = string_value(ctx, ts_node_named_child(list, i));
    if (!s) continue;
    DependencyRecord r;
    if (!RequirementSpec::parse(s->first, r)) continue;
    r.text = s->first;
    r.group = group;
    r.optional = optional;
    r.start = s->second;
    r.end = s->second + static_cast<uint32_t>(s->first.size());
    ctx.file.records.push_back(std::move(r));
  }
}

// Each `"key": value` of a dictionary literal (or of a module-level name bound to one).
template <typename Visit>
void for_each_pair(const Context& ctx, TSNode value, Visit visit) {
  const TSNode dict = resolve(ctx, value);
  if (!node_is(dict, "dictionary")) return;
  for (uint32_t j = 0; j < ts_node_named_child_count(dict); ++j) {
    const TSNode pair = ts_node_named_child(dict, j);
    if (!node_is(pair, "pair")) continue;
    visit(string_value(ctx, ts_node_child_by_field_name(pair, "key", 3)),
          ts_node_child_by_field_id(pair, PyFields::get().value));
  }
}

// `packages=`: a list of names, `find_packages(where, exclude, include)` (or
// `find_namespace_packages`), or a sum of those. Anything else (a comprehension) is not read.
void add_packages(Context& ctx, TSNode value, int depth) {
  const auto& F = PyFields::get();
  value = resolve(ctx, value);
  if (depth > 8 || ts_node_is_null(value)) return;
  if (node_is(value, "list") || node_is(value, "tuple")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(value); ++i)
      if (const auto s = string_value(ctx, ts_node_named_child(value, i)))
        add_package_part(ctx.file, "package", s->first, s->second);
  } else if (node_is(value, "binary_operator")) {
    add_packages(ctx, ts_node_child_by_field_id(value, F.left), depth + 1);
    add_packages(ctx, ts_node_child_by_field_id(value, F.right), depth + 1);
  } else if (node_is(value, "call")) {
    std::string_view fn = node_text(ctx.src, ts_node_child_by_field_id(value, F.function));
    if (const size_t dot = fn.rfind('.'); dot != std::string_view::npos) fn.remove_prefix(dot + 1);
    if (fn != "find_packages" && fn != "find_namespace_packages") return;
    const TSNode args = ts_node_child_by_field_id(value, F.arguments);
    const auto patterns = [&](std::string_view kind, TSNode list) {
      list = resolve(ctx, list);
      if (!node_is(list, "list") && !node_is(list, "tuple")) return;
      for (uint32_t k = 0; k < ts_node_named_child_count(list); ++k)
        if (const auto s = string_value(ctx, ts_node_named_child(list, k)))
          add_package_part(ctx.file, kind, s->first, s->second);
    };
    std::string where;
    uint32_t where_at = ts_node_start_byte(value);
    int position = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
      const TSNode arg = ts_node_named_child(args, i);
      std::string name;
      TSNode v = arg;
      if (node_is(arg, "keyword_argument")) {
        name = std::string(node_text(ctx.src, ts_node_child_by_field_id(arg, F.name)));
        v = ts_node_child_by_field_id(arg, F.value);
      } else {
        // find_packages(where='.', exclude=(), include=('*',))
        name = position == 0 ? "where" : position == 1 ? "exclude" : position == 2 ? "include" : "";
        ++position;
      }
      if (name == "where") {
        const auto s = string_value(ctx, resolve(ctx, v));
        if (!s) return;  // a computed folder: the search cannot be followed
        where = s->first;
        where_at = s->second;
      } else if (name == "exclude") {
        patterns("package-exclude", v);
      } else if (name == "include") {
        patterns("package-include", v);
      }
    }
    add_package_part(ctx.file, "package-find", where, where_at);
  }
}

void read_setup_call(Context& ctx, TSNode args) {
  const auto& F = PyFields::get();
  for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
    const TSNode kw = ts_node_named_child(args, i);
    if (!node_is(kw, "keyword_argument")) continue;
    const std::string name(node_text(ctx.src, ts_node_child_by_field_id(kw, F.name)));
    const TSNode value = ts_node_child_by_field_id(kw, F.value);
    if (name == "install_requires") add_list(ctx, value, "", false);
    else if (name == "setup_requires") add_list(ctx, value, "setup_requires", false);
    else if (name == "extras_require") {
      for_each_pair(ctx, value, [&](const std::optional<std::pair<std::string, uint32_t>>& key, TSNode list) {
        add_list(ctx, list, key ? key->first : "extra", true);
      });
    } else if (name == "entry_points") {
      // {"console_scripts": ["name = pkg.cli:main"], "gui_scripts": [...]}
      for_each_pair(ctx, value, [&](const std::optional<std::pair<std::string, uint32_t>>& key, TSNode value) {
        if (!key || (key->first != "console_scripts" && key->first != "gui_scripts")) return;
        const TSNode list = resolve(ctx, value);
        if (!node_is(list, "list") && !node_is(list, "tuple")) return;
        for (uint32_t k = 0; k < ts_node_named_child_count(list); ++k)
          if (const auto s = string_value(ctx, ts_node_named_child(list, k)))
            add_entry_point(ctx.file, s->first, s->second);
      });
    } else if (name == "packages") {
      add_packages(ctx, value, 0);
    } else if (name == "package_dir") {
      // {"": "src"} or {"kit": "lib/kit"}
      for_each_pair(ctx, value, [&](const std::optional<std::pair<std::string, uint32_t>>& key, TSNode dir) {
        const auto d = string_value(ctx, resolve(ctx, dir));
        if (key && d) add_package_part(ctx.file, "package-dir", key->first + "=" + d->first, d->second);
      });
    } else if (name == "ext_modules") {
      const TSNode list = resolve(ctx, value);
      if (!node_is(list, "list")) continue;
      for (uint32_t j = 0; j < ts_node_named_child_count(list); ++j) {
        const TSNode call = ts_node_named_child(list, j);
        if (!node_is(call, "call")) continue;
        const TSNode fn = ts_node_child_by_field_id(call, F.function);
        ctx.file.add_directive("ext-module", std::string(node_text(ctx.src, fn)), ts_node_start_byte(fn));
      }
    }
  }
}

void walk(Context& ctx, TSNode node, int depth) {
  if (depth > 200) return;
  if (node_is(node, "call")) {
    const auto& F = PyFields::get();
    const std::string_view fn = node_text(ctx.src, ts_node_child_by_field_id(node, F.function));
    if (fn == "setup" || (fn.size() > 6 && fn.substr(fn.size() - 6) == ".setup"))
      read_setup_call(ctx, ts_node_child_by_field_id(node, F.arguments));
  }
  for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) walk(ctx, ts_node_named_child(node, i), depth + 1);
}

}  // namespace

void SetupPyReader::read(DepsFile& file, PythonParser& parser) {
  const std::string_view src = file.text->text();
  if (const size_t depth = unparsable_nesting(src)) {
    file.errors.push_back({file.path, "brackets nested " + std::to_string(depth) +
                                          " levels deep and not closed in order; its dependencies were not read"});
    return;
  }
  TreePtr tree = parser.parse(src, 2'000'000);
  if (!tree) {
    file.errors.push_back({file.path, "setup.py took too long to parse; its dependencies were not read"});
    return;
  }
  Context ctx{file, src, {}};
  const TSNode root = ts_tree_root_node(tree.get());
  const auto& F = PyFields::get();
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    const TSNode stmt = ts_node_named_child(root, i);
    if (!node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) == 0) continue;
    const TSNode assign = ts_node_named_child(stmt, 0);
    if (!node_is(assign, "assignment")) continue;
    const TSNode left = ts_node_child_by_field_id(assign, F.left);
    const TSNode right = ts_node_child_by_field_id(assign, F.right);
    if (node_is(left, "identifier") && !ts_node_is_null(right))
      ctx.assignments[std::string(node_text(src, left))] = right;
  }
  walk(ctx, root, 0);
}

}  // namespace mpsready
