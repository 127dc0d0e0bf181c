#include "python/opt_in.h"

#include <vector>

#include <re2/re2.h>

#include "python/ts_python.h"

namespace mpsready {
namespace {

bool is_off_value(TSNode value) { return node_is(value, "false") || node_is(value, "none"); }

}  // namespace

OptInClassifier::OptInClassifier(std::string_view source, const std::vector<TSNode>& defaults,
                                 const std::vector<TSNode>& assignments)
    : source_(source) {
  const auto& f = PyFields::get();
  // Parameters that default to False or None, anywhere in the file.
  for (const TSNode node : defaults) {
    const TSNode value = ts_node_child_by_field_id(node, f.value);
    if (is_off_value(value)) off_by_default_.emplace(node_text(source, ts_node_child_by_field_id(node, f.name)));
    else if (node_is(value, "true")) on_by_default_.emplace(node_text(source, ts_node_child_by_field_id(node, f.name)));
  }
  // argparse flags: `add_argument("--fp16", action="store_true")` or `default=False/None`.
  static const RE2 flag(R"re(add_argument\(\s*['"]--([A-Za-z_][\w-]*)['"][^)]*?(?:store_true|default\s*=\s*(?:False|None)))re");
  re2::StringPiece input(source.data(), source.size());
  std::string name;
  while (RE2::FindAndConsume(&input, flag, &name)) {
    for (char& c : name)
      if (c == '-') c = '_';
    off_by_default_.insert(name);
  }
  // Locals copied from such options: `use_double, dtype = self.double_precision, x.dtype`.
  for (const TSNode assign : assignments) {
    const TSNode left = ts_node_child_by_field_id(assign, f.left);
    const TSNode right = ts_node_child_by_field_id(assign, f.right);
    const bool tuple = (node_is(left, "pattern_list") || node_is(left, "tuple_pattern")) &&
                       (node_is(right, "expression_list") || node_is(right, "tuple"));
    const uint32_t n = tuple ? ts_node_named_child_count(left) : 1;
    for (uint32_t i = 0; i < n; ++i) {
      const TSNode target = tuple ? ts_node_named_child(left, i) : left;
      const TSNode value = tuple ? ts_node_named_child(right, i) : right;
      if (!node_is(target, "identifier") || ts_node_is_null(value)) continue;
      if (std::string option = option_named(value); !option.empty())
        locals_from_options_.emplace(std::string(node_text(source, target)), std::move(option));
    }
  }
}

std::string OptInClassifier::option_named(TSNode node) const {
  const auto& f = PyFields::get();
  if (node_is(node, "identifier")) {
    std::string name(node_text(source_, node));
    return off_by_default_.count(name) || on_by_default_.count(name) ? name : "";
  }
  // `self.use_amp`, `args.fp16`, `cfg.use_ema`: the last name is the option.
  if (node_is(node, "attribute")) {
    const TSNode object = ts_node_child_by_field_id(node, f.object);
    if (!node_is(object, "identifier")) return "";
    std::string name(node_text(source_, ts_node_child_by_field_id(node, f.attribute)));
    return off_by_default_.count(name) || on_by_default_.count(name) ? name : "";
  }
  return "";
}

bool OptInClassifier::is_option_name(TSNode node) const {
  const std::string name = option_named(node);
  return !name.empty() && off_by_default_.count(name);
}

std::string OptInClassifier::opt_out_option(TSNode condition) const {
  while (node_is(condition, "parenthesized_expression") && ts_node_named_child_count(condition) == 1)
    condition = ts_node_named_child(condition, 0);
  std::string option;
  if (node_is(condition, "identifier")) {
    const auto local = locals_from_options_.find(std::string(node_text(source_, condition)));
    if (local != locals_from_options_.end()) option = local->second;
  }
  if (option.empty()) option = option_named(condition);
  return !option.empty() && on_by_default_.count(option) && !off_by_default_.count(option) ? option : "";
}

bool OptInClassifier::is_opt_in(TSNode condition) const {
  const auto& f = PyFields::get();
  while (node_is(condition, "parenthesized_expression") && ts_node_named_child_count(condition) == 1)
    condition = ts_node_named_child(condition, 0);
  // `use_amp and other`: both must hold, so the option must be on.
  if (node_is(condition, "boolean_operator") &&
      node_text(source_, ts_node_child_by_field_id(condition, f.operator_)) == "and")
    return is_opt_in(ts_node_child_by_field_id(condition, f.left));
  // `scaler is not None` for an option that defaults to None.
  if (node_is(condition, "comparison_operator") && ts_node_named_child_count(condition) == 2 &&
      node_is(ts_node_named_child(condition, 1), "none") &&
      node_text(source_, condition).find("is not") != std::string_view::npos)
    condition = ts_node_named_child(condition, 0);
  if (node_is(condition, "identifier")) {
    const auto local = locals_from_options_.find(std::string(node_text(source_, condition)));
    if (local != locals_from_options_.end()) return off_by_default_.count(local->second) != 0;
  }
  return is_option_name(condition);
}

}  // namespace mpsready
