#include "python/type_test_names.h"

#include <string_view>

#include "python/ts_python.h"

namespace mpsready {
namespace {

bool is_call_to(const PythonFile& file, TSNode call, std::string_view name) {
  return node_is(call, "call") && file.text(ts_node_child_by_field_id(call, PyFields::get().function)) == name;
}

// `node` is the class argument (the second) of `isinstance(...)` / `issubclass(...)`.
bool is_type_argument(const PythonFile& file, TSNode node) {
  const TSNode args = ts_node_parent(node);
  if (!node_is(args, "argument_list") || ts_node_named_child_count(args) != 2) return false;
  if (!ts_node_eq(ts_node_named_child(args, 1), node)) return false;
  const TSNode call = ts_node_parent(args);
  return is_call_to(file, call, "isinstance") || is_call_to(file, call, "issubclass");
}

// `tuple(x)` as the class argument of a type test.
bool is_tuple_of_type_argument(const PythonFile& file, TSNode node) {
  const TSNode args = ts_node_parent(node);
  if (!node_is(args, "argument_list") || ts_node_named_child_count(args) != 1) return false;
  const TSNode call = ts_node_parent(args);
  return is_call_to(file, call, "tuple") && is_type_argument(file, call);
}

// `(s.__name__ for s in x)`, `[s.__qualname__ for s in x]`: the iterable of a comprehension
// whose only clause is this one and whose item is a name attribute of the loop variable.
bool is_name_listing(const PythonFile& file, TSNode node) {
  const PyFields& f = PyFields::get();
  const TSNode clause = ts_node_parent(node);
  if (!node_is(clause, "for_in_clause") || !ts_node_eq(ts_node_child_by_field_id(clause, f.right), node)) return false;
  const TSNode loop = ts_node_child_by_field_id(clause, f.left);
  const TSNode comprehension = ts_node_parent(clause);
  if (!node_is(loop, "identifier") || ts_node_named_child_count(comprehension) != 2) return false;
  const TSNode item = ts_node_child_by_field_id(comprehension, f.body);
  if (!node_is(item, "attribute")) return false;
  const std::string_view attribute = file.text(ts_node_child_by_field_id(item, f.attribute));
  const TSNode object = ts_node_child_by_field_id(item, f.object);
  return node_is(object, "identifier") && file.text(object) == file.text(loop) &&
         (attribute == "__name__" || attribute == "__qualname__");
}

}  // namespace

bool names_only_type_tests(const PythonFile& file, TSNode assignment) {
  const PyFields& f = PyFields::get();
  const TSNode left = ts_node_child_by_field_id(assignment, f.left);
  if (!node_is(left, "identifier")) return false;
  const std::string_view name = file.text(left);
  // The scope the name lives in: the enclosing function, else the module.
  TSNode scope = ts_node_parent(assignment);
  while (!ts_node_is_null(scope) && !node_is(scope, "function_definition") && !node_is(scope, "module"))
    scope = ts_node_parent(scope);
  if (ts_node_is_null(scope)) return false;
  // Every mention of the name, read with a cursor (no recursion over input-made depth).
  TSTreeCursor cursor = ts_tree_cursor_new(scope);
  unsigned seen = 0;
  bool type_test = false, other = false;
  for (bool more = true; more && !other;) {
    const TSNode node = ts_tree_cursor_current_node(&cursor);
    if (++seen > kMaxScopeNodes) {
      other = true;
      break;
    }
    if (node_is(node, "identifier") && file.text(node) == name && !ts_node_eq(node, left)) {
      // An attribute's own name (`self.supported`) is another variable.
      const TSNode parent = ts_node_parent(node);
      const bool attribute_name =
          node_is(parent, "attribute") && ts_node_eq(ts_node_child_by_field_id(parent, f.attribute), node);
      if (!attribute_name) {
        if (is_type_argument(file, node) || is_tuple_of_type_argument(file, node)) type_test = true;
        else if (!is_name_listing(file, node)) other = true;
      }
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor))
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
  }
  ts_tree_cursor_delete(&cursor);
  return type_test && !other;
}

}  // namespace mpsready
