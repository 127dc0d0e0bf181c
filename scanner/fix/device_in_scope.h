#pragma once
// Where a fix needs a device, it uses the one the code already holds where the site is, or binds
// one once for the whole scope; it never writes the device choice inline at each site (a
// rewrite's "bound_name" and the rule's "bindings" in rule.json).
#include <cstdint>
#include <string>
#include <string_view>

#include <tree_sitter/api.h>

namespace mpsready {

// What a scope offers a fix that needs a device named `name` at a site.
struct DeviceScope {
  bool bound = false;       // the name holds a device there: use it
  bool object = false;      // ... a `torch.device` (not a string): `device.type` is there
  std::string expression;   // how to write it there when not the bare name (`self.device`)
  bool insertable = false;  // else a binding may go at `insert_at` (a line start), indented so
  uint32_t insert_at = 0;
  std::string indent;
  bool after_imports = false;  // at module level after the imports: set off by a blank line
  std::string scope;        // what the binding would serve, for reasons ("function `train`")
  // A binding in a function that takes the model it runs (`def validate(model, loader):`; a
  // parameter `model`, `net`, `network`, or one annotated `...Module`) and
  // neither rebinds nor moves it: the parameter's name. The device is then the model's own
  // (`next(model.parameters()).device`), where the caller put it (`--device cpu` included),
  // not a second choice that could disagree with the caller's.
  std::string from_module;
};

// The name holds a device at `site` when it is a parameter of an enclosing function (the innermost
// function that binds the name decides), or when every binding of it in that function's body, or
// at module level, is an assignment of a device value (a device string, a `torch.device(...)` or
// `torch.accelerator.current_accelerator()` call, a conditional choice of those) and one comes
// before the site.
// In a method, an attribute of the instance by that name holds a device when the class assigns
// it only device values (`self.device = torch.device(...)`), in `__init__` or earlier in the
// method, or defines it as a property: then `expression` is `self.device`.
// Else a binding is insertable at the top of the innermost function (after its docstring) when
// that function never mentions the name (from the model's own device when it takes one:
// `from_module`) (a read of a global of that name would change meaning),
// or, for a site at module level and when `module_binding` allows, after the module's last
// import before the site, when the module never mentions the name. Never in a lambda or a class
// body.
// `script_binding` (with `module_binding`): a script whose functions would each bind the device
// binds it once after its imports instead, for its functions and its `__main__` block alike,
// where the conditions for a module-level binding hold.
DeviceScope device_scope(std::string_view text, TSNode root, uint32_t site, std::string_view name,
                         bool module_binding, bool script_binding = false);

// Whether the module is a script: it has a top-level `if __name__ == "__main__":` block.
bool is_script(std::string_view text, TSNode root);

// device_scope(...).bound, parsing `text` itself. For tests.
bool device_bound_in_scope(std::string_view text, uint32_t site, std::string_view name);

}  // namespace mpsready
