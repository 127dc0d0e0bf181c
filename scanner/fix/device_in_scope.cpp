#include "fix/device_in_scope.h"

#include <vector>

#include "python/ts_python.h"

namespace mpsready {

namespace {

// The parameter's name node, for each form of parameter that has one.
TSNode parameter_name(TSNode parameter) {
  if (node_is(parameter, "identifier")) return parameter;
  if (node_is(parameter, "default_parameter") || node_is(parameter, "typed_default_parameter"))
    return ts_node_child_by_field_id(parameter, PyFields::get().name);
  if (node_is(parameter, "typed_parameter") && ts_node_named_child_count(parameter) > 0) {
    const TSNode first = ts_node_named_child(parameter, 0);
    if (node_is(first, "identifier")) return first;
  }
  return TSNode{};
}

bool has_parameter(std::string_view text, TSNode function, std::string_view name) {
  const TSNode parameters = ts_node_child_by_field_name(function, "parameters", 10);
  if (ts_node_is_null(parameters)) return false;
  for (uint32_t i = 0; i < ts_node_named_child_count(parameters); ++i) {
    const TSNode id = parameter_name(ts_node_named_child(parameters, i));
    if (!ts_node_is_null(id) && node_text(text, id) == name) return true;
  }
  return false;
}

// Whether `target` (an assignment's left side, a for loop's target, ...) binds `name`.
bool binds(std::string_view text, TSNode target, std::string_view name) {
  if (ts_node_is_null(target)) return false;
  if (node_is(target, "identifier")) return node_text(text, target) == name;
  if (node_is(target, "pattern_list") || node_is(target, "tuple_pattern") || node_is(target, "list_pattern") ||
      node_is(target, "tuple") || node_is(target, "list") || node_is(target, "parenthesized_expression")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(target); ++i)
      if (binds(text, ts_node_named_child(target, i), name)) return true;
  }
  return false;
}

// Whether the function's own body (not nested functions or classes) binds `name` other than as
// a parameter: then it is a local whose value is not known here.
bool assigns(std::string_view text, TSNode node, std::string_view name, bool top = true) {
  if (!top && (node_is(node, "function_definition") || node_is(node, "class_definition"))) return false;
  const PyFields& f = PyFields::get();
  if (node_is(node, "assignment") || node_is(node, "augmented_assignment") || node_is(node, "for_statement") ||
      node_is(node, "for_in_clause")) {
    if (binds(text, ts_node_child_by_field_id(node, f.left), name)) return true;
  }
  if (node_is(node, "named_expression") && binds(text, ts_node_child_by_field_id(node, f.name), name)) return true;
  if (node_is(node, "as_pattern") || node_is(node, "global_statement") || node_is(node, "nonlocal_statement") ||
      node_is(node, "import_statement") || node_is(node, "import_from_statement")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
      TSNode child = ts_node_named_child(node, i);
      if (node_is(child, "as_pattern_target") && ts_node_named_child_count(child) > 0) child = ts_node_named_child(child, 0);
      if (node_is(child, "aliased_import")) child = ts_node_child_by_field_id(child, f.alias);
      if (node_is(child, "dotted_name") && ts_node_named_child_count(child) == 1) child = ts_node_named_child(child, 0);
      if (binds(text, child, name)) return true;
    }
  }
  const TSNode body = top ? ts_node_child_by_field_id(node, f.body) : node;
  if (top) return !ts_node_is_null(body) && assigns(text, body, name, false);
  for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i)
    if (assigns(text, ts_node_named_child(node, i), name, false)) return true;
  return false;
}

bool device_value(std::string_view text, TSNode value) {
  if (node_is(value, "parenthesized_expression") && ts_node_named_child_count(value) == 1)
    return device_value(text, ts_node_named_child(value, 0));
  if (node_is(value, "string") || node_is(value, "concatenated_string")) return true;
  if (node_is(value, "call"))
    return node_text(text, ts_node_child_by_field_id(value, PyFields::get().function)) == "torch.device";
  if (node_is(value, "conditional_expression")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(value); i += 2)  // the choices, not the condition
      if (!device_value(text, ts_node_named_child(value, i))) return false;
    return true;
  }
  return false;
}

}  // namespace

bool device_bound_in_scope(std::string_view text, uint32_t site, std::string_view name) {
  PythonParser parser;
  const TreePtr tree = parser.parse(text, /*timeout_micros=*/10'000'000);
  if (!tree) return false;
  const TSNode root = ts_tree_root_node(tree.get());
  // The functions around the site, innermost first: the first that binds the name decides.
  for (TSNode n = ts_node_descendant_for_byte_range(root, site, site); !ts_node_is_null(n); n = ts_node_parent(n)) {
    if (node_is(n, "lambda")) return false;  // its parameters and body: not worth the risk
    if (!node_is(n, "function_definition")) continue;
    if (has_parameter(text, n, name)) return true;
    if (assigns(text, n, name)) return false;
  }
  // The module: every top-level assignment of the name is a device value, one comes before the site.
  bool before_site = false;
  const PyFields& f = PyFields::get();
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    const TSNode statement = ts_node_named_child(root, i);
    if (!node_is(statement, "expression_statement") || ts_node_named_child_count(statement) != 1) continue;
    const TSNode assignment = ts_node_named_child(statement, 0);
    if (!node_is(assignment, "assignment") || !binds(text, ts_node_child_by_field_id(assignment, f.left), name)) continue;
    if (!node_is(ts_node_child_by_field_id(assignment, f.left), "identifier") ||
        !device_value(text, ts_node_child_by_field_id(assignment, f.right)))
      return false;
    if (ts_node_end_byte(statement) <= site) before_site = true;
  }
  return before_site;
}

}  // namespace mpsready
