#include "fix/device_in_scope.h"

#include <optional>
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

// The parameter of `function` named `name`, or a null node.
TSNode parameter_named(std::string_view text, TSNode function, std::string_view name) {
  const TSNode parameters = ts_node_child_by_field_name(function, "parameters", 10);
  if (ts_node_is_null(parameters)) return TSNode{};
  for (uint32_t i = 0; i < ts_node_named_child_count(parameters); ++i) {
    const TSNode parameter = ts_node_named_child(parameters, i);
    const TSNode id = parameter_name(parameter);
    if (!ts_node_is_null(id) && node_text(text, id) == name) return parameter;
  }
  return TSNode{};
}

// A parameter annotated `torch.device` (alone: `Optional[torch.device]` may be None).
bool annotated_device(std::string_view text, TSNode parameter) {
  const TSNode type = ts_node_child_by_field_id(parameter, PyFields::get().type);
  return !ts_node_is_null(type) && node_text(text, type).ends_with("torch.device") &&
         !node_is(parameter, "typed_default_parameter");
}

bool is_scope(TSNode n) {
  return node_is(n, "function_definition") || node_is(n, "class_definition") || node_is(n, "lambda");
}

// Whether `target` (an assignment's left side, a for loop's target, ...) binds `name`. Patterns
// nest as deep as the input makes them: walked with a stack.
bool binds(std::string_view text, TSNode target, std::string_view name) {
  std::vector<TSNode> stack{target};
  while (!stack.empty()) {
    const TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_is_null(n)) continue;
    if (node_is(n, "identifier")) {
      if (node_text(text, n) == name) return true;
      continue;
    }
    if (node_is(n, "pattern_list") || node_is(n, "tuple_pattern") || node_is(n, "list_pattern") || node_is(n, "tuple") ||
        node_is(n, "list") || node_is(n, "parenthesized_expression") || node_is(n, "list_splat_pattern") ||
        node_is(n, "as_pattern_target") || node_is(n, "dotted_name")) {
      for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) stack.push_back(ts_node_named_child(n, i));
    } else if (node_is(n, "aliased_import")) {
      stack.push_back(ts_node_child_by_field_id(n, PyFields::get().alias));
    }
  }
  return false;
}

// `strings`: whether a device string counts (else only a device object does).
bool device_value(std::string_view text, TSNode value, bool strings = true) {
  std::vector<TSNode> stack{value};
  while (!stack.empty()) {
    TSNode v = stack.back();
    stack.pop_back();
    if (node_is(v, "parenthesized_expression") && ts_node_named_child_count(v) == 1) {
      stack.push_back(ts_node_named_child(v, 0));
    } else if (node_is(v, "conditional_expression")) {
      for (uint32_t i = 0; i < ts_node_named_child_count(v); i += 2)  // the choices, not the condition
        stack.push_back(ts_node_named_child(v, i));
    } else if (node_is(v, "call")) {
      const std::string_view callee = node_text(text, ts_node_child_by_field_id(v, PyFields::get().function));
      if (!callee.ends_with(".device") && !callee.ends_with(".current_accelerator")) return false;
    } else if (node_is(v, "attribute") &&
               node_text(text, ts_node_child_by_field_id(v, PyFields::get().attribute)) == "device") {
      // `next(model.parameters()).device`: the device of what a call returns (a parameter, a
      // tensor) is a device object. `args.device` or `self.device` may hold anything an option or
      // a caller gave (a string, an index): not known to be a device.
      if (!node_is(ts_node_child_by_field_id(v, PyFields::get().object), "call")) return false;
    } else if (!strings || (!node_is(v, "string") && !node_is(v, "concatenated_string"))) {
      return false;
    }
  }
  return true;
}

// The bindings of `name` in a scope's own code (nested functions and classes are scopes of their
// own): the starts of assignments of a device value, and whether any other binding exists.
struct Bindings {
  std::vector<uint32_t> device_assignments;
  bool objects = true;  // every one assigns a device object, never a string
  bool other = false;
};

Bindings bindings_in(std::string_view text, TSNode top, std::string_view name) {
  const PyFields& f = PyFields::get();
  Bindings out;
  std::vector<TSNode> stack;
  for (uint32_t i = ts_node_named_child_count(top); i-- > 0;) stack.push_back(ts_node_named_child(top, i));
  while (!stack.empty()) {
    const TSNode n = stack.back();
    stack.pop_back();
    if (is_scope(n)) {
      // `def device(): ...` binds the name here; its body is its own scope.
      const TSNode own = ts_node_child_by_field_id(n, f.name);
      if (!ts_node_is_null(own) && node_text(text, own) == name) out.other = true;
      continue;
    }
    if (node_is(n, "assignment")) {
      const TSNode left = ts_node_child_by_field_id(n, f.left);
      if (binds(text, left, name)) {
        const TSNode right = ts_node_child_by_field_id(n, f.right);
        if (node_is(left, "identifier") && device_value(text, right)) {
          out.device_assignments.push_back(ts_node_start_byte(n));
          out.objects = out.objects && device_value(text, right, /*strings=*/false);
        } else
          out.other = true;
      }
    } else if (node_is(n, "augmented_assignment") || node_is(n, "for_statement") || node_is(n, "for_in_clause")) {
      if (binds(text, ts_node_child_by_field_id(n, f.left), name)) out.other = true;
    } else if (node_is(n, "named_expression")) {
      if (binds(text, ts_node_child_by_field_id(n, f.name), name)) out.other = true;
    } else if (node_is(n, "as_pattern") || node_is(n, "global_statement") || node_is(n, "nonlocal_statement") ||
               node_is(n, "import_statement") || node_is(n, "import_from_statement")) {
      for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
        if (binds(text, ts_node_named_child(n, i), name)) out.other = true;
    }
    for (uint32_t i = ts_node_named_child_count(n); i-- > 0;) stack.push_back(ts_node_named_child(n, i));
  }
  return out;
}

// The uses of `name` as a variable in `top`'s code, nested scopes included, in no set order: not
// a keyword argument's name or an attribute (`device=` and `x.device` are other names).
std::vector<TSNode> variable_uses(std::string_view text, TSNode top, std::string_view name) {
  const PyFields& f = PyFields::get();
  std::vector<TSNode> uses;
  std::vector<TSNode> stack{top};
  while (!stack.empty()) {
    const TSNode n = stack.back();
    stack.pop_back();
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) stack.push_back(ts_node_named_child(n, i));
    if (!node_is(n, "identifier") || node_text(text, n) != name) continue;
    const TSNode parent = ts_node_parent(n);
    if (node_is(parent, "keyword_argument") && ts_node_eq(ts_node_child_by_field_id(parent, f.name), n)) continue;
    if (node_is(parent, "attribute") && ts_node_eq(ts_node_child_by_field_id(parent, f.attribute), n)) continue;
    uses.push_back(n);
  }
  return uses;
}

bool mentions(std::string_view text, TSNode top, std::string_view name) {
  return !variable_uses(text, top, name).empty();
}

// Whether the module's code reads `name` as a global: a use at module level, or in a function
// that neither it nor a function around it binds (as a parameter or in its body).
bool reads_global(std::string_view text, TSNode root, std::string_view name) {
  const PyFields& f = PyFields::get();
  for (const TSNode n : variable_uses(text, root, name)) {
    const TSNode parent = ts_node_parent(n);
    // A method or class of that name binds it in its class or function, and reads nothing.
    if (node_is(parent, "function_definition") || node_is(parent, "class_definition")) {
      TSNode holder = ts_node_parent(parent);
      if (node_is(holder, "decorated_definition")) holder = ts_node_parent(holder);
      if (ts_node_eq(ts_node_child_by_field_id(parent, f.name), n) && !node_is(holder, "module")) continue;
    }
    bool local = false;
    for (TSNode up = parent; !ts_node_is_null(up) && !local; up = ts_node_parent(up)) {
      if (!node_is(up, "function_definition")) continue;
      const Bindings own = bindings_in(text, ts_node_child_by_field_id(up, f.body), name);
      local = !ts_node_is_null(parameter_named(text, up, name)) || own.other || !own.device_assignments.empty();
    }
    if (!local) return true;
  }
  return false;
}

bool has_star_import(TSNode root) {
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    const TSNode statement = ts_node_named_child(root, i);
    if (!node_is(statement, "import_from_statement")) continue;
    for (uint32_t j = 0; j < ts_node_named_child_count(statement); ++j)
      if (node_is(ts_node_named_child(statement, j), "wildcard_import")) return true;
  }
  return false;
}

// The start of the line holding `byte`, and whether only blanks come before it there.
std::optional<uint32_t> line_start_before(std::string_view text, uint32_t byte, std::string& indent) {
  uint32_t start = byte;
  while (start > 0 && text[start - 1] != '\n') --start;
  for (uint32_t i = start; i < byte; ++i)
    if (text[i] != ' ' && text[i] != '\t') return std::nullopt;
  indent = std::string(text.substr(start, byte - start));
  return start;
}

bool is_docstring(TSNode statement) {
  return node_is(statement, "expression_statement") && ts_node_named_child_count(statement) == 1 &&
         node_is(ts_node_named_child(statement, 0), "string");
}

// Where a binding goes in `function`: before its first statement after the docstring, at that
// statement's indentation; or after the docstring when nothing follows it.
bool function_insertion(std::string_view text, TSNode function, DeviceScope& out) {
  const TSNode body = ts_node_child_by_field_id(function, PyFields::get().body);
  if (ts_node_is_null(body) || ts_node_named_child_count(body) == 0) return false;
  if (ts_node_start_point(body).row == ts_node_start_point(function).row) return false;  // `def f(x): return ...`
  TSNode first = ts_node_named_child(body, 0);
  uint32_t index = 0;
  while (node_is(first, "comment") && index + 1 < ts_node_named_child_count(body)) first = ts_node_named_child(body, ++index);
  if (is_docstring(first)) {
    if (index + 1 < ts_node_named_child_count(body)) {
      first = ts_node_named_child(body, index + 1);
    } else {
      const size_t newline = text.find('\n', ts_node_end_byte(first));
      if (newline == std::string_view::npos) return false;
      if (!line_start_before(text, ts_node_start_byte(first), out.indent)) return false;
      out.insert_at = static_cast<uint32_t>(newline + 1);
      return true;
    }
  }
  const auto at = line_start_before(text, ts_node_start_byte(first), out.indent);
  if (!at || out.indent.empty()) return false;
  out.insert_at = *at;
  return true;
}

// A top-level `if __name__ == "__main__":` around the site: a script's own code.
// Whether a top-level statement is `if __name__ == "__main__":`.
bool is_main_check(std::string_view text, TSNode statement) {
  if (!node_is(statement, "if_statement")) return false;
  std::string condition(node_text(text, ts_node_child_by_field_id(statement, PyFields::get().condition)));
  std::erase_if(condition, [](char c) { return c == ' ' || c == '\'' || c == '"'; });
  return condition == "__name__==__main__" || condition == "__main__==__name__";
}

TSNode main_block_around(std::string_view text, TSNode root, uint32_t site) {
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    const TSNode statement = ts_node_named_child(root, i);
    if (!node_is(statement, "if_statement") || site < ts_node_start_byte(statement) || site >= ts_node_end_byte(statement))
      continue;
    if (!is_main_check(text, statement)) return TSNode{};
    const TSNode block = ts_node_child_by_field_id(statement, PyFields::get().consequence);
    if (ts_node_is_null(block) || site < ts_node_start_byte(block)) return TSNode{};
    return block;
  }
  return TSNode{};
}

// Where a binding goes at module level: at the top of the `__main__` block around the site (unless
// `after_imports_only`), or on the line after the last top-level import that ends before the site.
bool module_insertion(std::string_view text, TSNode root, uint32_t site, DeviceScope& out, bool after_imports_only = false) {
  if (const TSNode block = after_imports_only ? TSNode{} : main_block_around(text, root, site); !ts_node_is_null(block)) {
    if (ts_node_named_child_count(block) == 0) return false;
    TSNode first = ts_node_named_child(block, 0);
    for (uint32_t i = 1; node_is(first, "comment") && i < ts_node_named_child_count(block); ++i)
      first = ts_node_named_child(block, i);
    const auto at = line_start_before(text, ts_node_start_byte(first), out.indent);
    if (!at || out.indent.empty() || *at > site) return false;
    out.insert_at = *at;
    return true;
  }
  std::optional<uint32_t> after;
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    const TSNode statement = ts_node_named_child(root, i);
    if (ts_node_start_byte(statement) >= site) break;
    if (!node_is(statement, "import_statement") && !node_is(statement, "import_from_statement")) continue;
    const size_t newline = text.find('\n', ts_node_end_byte(statement));
    if (newline == std::string_view::npos || newline + 1 > site) return false;
    after = static_cast<uint32_t>(newline + 1);
  }
  if (!after) return false;
  out.insert_at = *after;
  out.indent.clear();
  out.after_imports = true;
  return true;
}

// The instance attribute `name` of the class around `method`, written `<self>.<name>`, when every
// assignment of it in the class's methods is a device value and one runs before the site (in
// `__init__`, or before it in the same method), or when the class has a property of that name.
// `taken`: the class keeps something else under that name (`self.device = args.device`), which a
// binding of the method's own would contradict.
DeviceScope attribute_device(std::string_view text, TSNode method, uint32_t site, std::string_view name, bool& taken) {
  const PyFields& f = PyFields::get();
  DeviceScope none;
  taken = false;
  const TSNode block = ts_node_parent(method);
  const TSNode cls = ts_node_parent(block);
  if (!node_is(block, "block") || !node_is(cls, "class_definition")) return none;
  const TSNode parameters = ts_node_child_by_field_id(method, f.parameters);
  if (ts_node_is_null(parameters) || ts_node_named_child_count(parameters) == 0) return none;
  const TSNode self = ts_node_named_child(parameters, 0);
  if (!node_is(self, "identifier")) return none;
  const std::string self_name(node_text(text, self));
  const std::string written = self_name + "." + std::string(name);
  bool before = false, objects = true;
  for (uint32_t i = 0; i < ts_node_named_child_count(block); ++i) {
    TSNode member = ts_node_named_child(block, i);
    bool property = false;
    if (node_is(member, "decorated_definition")) {
      for (uint32_t j = 0; j < ts_node_named_child_count(member); ++j) {
        const TSNode d = ts_node_named_child(member, j);
        property = property || (node_is(d, "decorator") && node_text(text, d) == "@property");
      }
      member = ts_node_child_by_field_id(member, f.definition);
    }
    if (!node_is(member, "function_definition")) continue;
    const std::string_view member_name = node_text(text, ts_node_child_by_field_id(member, f.name));
    if (property && member_name == name) return DeviceScope{.bound = true, .expression = written};
    // Every assignment of `self.<name>` in this method (nested scopes are not searched: their
    // `self` may be another object).
    std::vector<TSNode> stack{ts_node_child_by_field_id(member, f.body)};
    while (!stack.empty()) {
      const TSNode n = stack.back();
      stack.pop_back();
      if (ts_node_is_null(n) || is_scope(n)) continue;
      for (uint32_t j = 0; j < ts_node_named_child_count(n); ++j) stack.push_back(ts_node_named_child(n, j));
      if (!node_is(n, "assignment") && !node_is(n, "augmented_assignment")) continue;
      const TSNode left = ts_node_child_by_field_id(n, f.left);
      if (node_text(text, left).find(written) == std::string_view::npos) continue;
      const TSNode right = ts_node_child_by_field_id(n, f.right);
      taken = true;
      if (!node_is(n, "assignment") || node_text(text, left) != written || !device_value(text, right)) return none;
      objects = objects && device_value(text, right, /*strings=*/false);
      const bool same_method = ts_node_eq(member, method);
      before = before || (member_name == "__init__" && !same_method) || (same_method && ts_node_start_byte(n) < site);
    }
  }
  if (!before) return none;
  taken = false;
  return DeviceScope{.bound = true, .object = objects, .expression = written};
}

// Parameter names that hold the model a function runs. Not `module`: hooks pass an nn.Module
// under that name, but so does code that handles Python modules, which have no parameters.
bool module_parameter_name(std::string_view name) { return name == "model" || name == "net" || name == "network"; }

// The parameter of `function` that holds its model (module_parameter_name, or annotated
// `nn.Module`), when the function neither rebinds it nor moves it (`model.cuda()`,
// `model.to(...)`, `model.cpu()`, in nested code too): a model it only runs or reads stays where
// its caller put it. "" when there is none, or more than one.
std::string module_parameter(std::string_view text, TSNode function) {
  const PyFields& f = PyFields::get();
  const TSNode parameters = ts_node_child_by_field_id(function, f.parameters);
  const TSNode body = ts_node_child_by_field_id(function, f.body);
  if (ts_node_is_null(parameters) || ts_node_is_null(body)) return "";
  std::string found;
  for (uint32_t i = 0; i < ts_node_named_child_count(parameters); ++i) {
    const TSNode parameter = ts_node_named_child(parameters, i);
    const TSNode id = parameter_name(parameter);
    if (ts_node_is_null(id) || node_is(parameter, "default_parameter") || node_is(parameter, "typed_default_parameter"))
      continue;
    const TSNode type = ts_node_child_by_field_id(parameter, f.type);
    const bool annotated = !ts_node_is_null(type) && node_text(text, type).ends_with("Module");
    if (!module_parameter_name(node_text(text, id)) && !annotated) continue;
    if (!found.empty()) return "";
    found = std::string(node_text(text, id));
  }
  if (found.empty()) return "";
  const Bindings own = bindings_in(text, body, found);
  if (own.other || !own.device_assignments.empty()) return "";
  for (const TSNode use : variable_uses(text, body, found)) {
    const TSNode attribute = ts_node_parent(use);
    if (!node_is(attribute, "attribute") || !ts_node_eq(ts_node_child_by_field_id(attribute, f.object), use)) continue;
    const std::string_view method = node_text(text, ts_node_child_by_field_id(attribute, f.attribute));
    if (method == "cuda" || method == "to" || method == "cpu") return "";
  }
  return found;
}

}  // namespace

bool is_script(std::string_view text, TSNode root) {
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i)
    if (is_main_check(text, ts_node_named_child(root, i))) return true;
  return false;
}

DeviceScope device_scope(std::string_view text, TSNode root, uint32_t site, std::string_view name,
                         bool module_binding, bool script_binding) {
  DeviceScope none;
  TSNode innermost{};
  // The scopes around the site, innermost first: the first that binds the name decides.
  for (TSNode n = ts_node_descendant_for_byte_range(root, site, site); !ts_node_is_null(n); n = ts_node_parent(n)) {
    if (node_is(n, "lambda")) return none;  // its parameters and body: not worth the risk
    if (node_is(n, "class_definition")) {
      if (ts_node_is_null(innermost)) return none;  // a class body: its names are no method's
      continue;
    }
    if (!node_is(n, "function_definition")) continue;
    const TSNode body = ts_node_child_by_field_id(n, PyFields::get().body);
    if (ts_node_is_null(innermost)) {
      if (ts_node_is_null(body) || site < ts_node_start_byte(body)) return none;  // a default value, a decorator
      innermost = n;
    }
    if (const TSNode parameter = parameter_named(text, n, name); !ts_node_is_null(parameter))
      return DeviceScope{.bound = true, .object = annotated_device(text, parameter)};
    const Bindings local = bindings_in(text, body, name);
    if (local.other) return none;
    if (!local.device_assignments.empty()) {
      if (local.device_assignments.front() < site) return DeviceScope{.bound = true, .object = local.objects};
      return none;  // assigned after the site: a local not yet set there
    }
  }
  if (!ts_node_is_null(innermost) && !mentions(text, innermost, name)) {
    bool taken = false;
    if (DeviceScope attribute = attribute_device(text, innermost, site, name, taken); attribute.bound) return attribute;
    if (taken) return none;
  }
  const Bindings global = bindings_in(text, root, name);
  if (!global.other && !global.device_assignments.empty() && global.device_assignments.front() < site)
    return DeviceScope{.bound = true, .object = global.objects};
  DeviceScope insert;
  // A script's one binding after its imports, which its functions read as a global.
  const auto script_level = [&] {
    return script_binding && module_binding && !global.other && global.device_assignments.empty() &&
           !reads_global(text, root, name) && !has_star_import(root) && module_insertion(text, root, site, insert, true);
  };
  // A function that runs a model it was given takes the model's device, script or not.
  const std::string model = ts_node_is_null(innermost) ? "" : module_parameter(text, innermost);
  if (!ts_node_is_null(innermost) && model.empty() && !mentions(text, innermost, name) && script_level()) {
    insert.scope = "the script";
  } else if (!ts_node_is_null(innermost)) {
    insert = DeviceScope{};
    if (mentions(text, innermost, name) || !function_insertion(text, innermost, insert)) return none;
    const TSNode id = ts_node_child_by_field_id(innermost, PyFields::get().name);
    insert.scope = "function `" + std::string(node_text(text, id)) + "`";
    insert.from_module = model;
  } else {
    // A read of a global of that name (at module level, in a function that does not bind it, one a
    // star import may bind) would read the binding: the module must read none.
    if (!module_binding || global.other || !global.device_assignments.empty() || reads_global(text, root, name) ||
        has_star_import(root) || !module_insertion(text, root, site, insert))
      return none;
    if (script_level()) insert.scope = "the script";
    else insert.scope = insert.indent.empty() ? "the module" : "the `__main__` block";
  }
  insert.insertable = true;
  insert.object = true;  // a rule's binding makes a device object (docs/rule-format.md)
  return insert;
}

bool device_bound_in_scope(std::string_view text, uint32_t site, std::string_view name) {
  PythonParser parser;
  const TreePtr tree = parser.parse(text, /*timeout_micros=*/10'000'000);
  if (!tree) return false;
  return device_scope(text, ts_tree_root_node(tree.get()), site, name, false).bound;
}

}  // namespace mpsready
