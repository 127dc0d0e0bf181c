#include "python/downcast_helpers.h"

#include <unordered_set>

#include <re2/re2.h>

#include "python/guard_map.h"
#include "python/python_file.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

// Bounds on hostile files: function bodies and the file's definitions are walked at most this far.
constexpr size_t kMaxNodes = 1 << 20;

bool casts_to_float32(std::string_view code) {
  // `x.float()`, `torch.float32` / `np.float32` / "float32", `torch.float` (not `torch.float64`).
  static const RE2 cast(R"re((\.float\(\s*\)|\bfloat32\b|\btorch\.float\b))re");
  return RE2::PartialMatch(re2::StringPiece(code.data(), code.size()), cast);
}

// The code a Mac runs under an `if`/`elif` (or a conditional expression) about MPS.
TSNode mps_branch(const PythonFile& file, TSNode node) {
  const auto& f = PyFields::get();
  if (node_is(node, "conditional_expression")) {
    if (ts_node_named_child_count(node) < 3) return TSNode{};
    const MpsCheck check = classify_mps_condition(file.text(ts_node_named_child(node, 1)));
    if (check == MpsCheck::positive) return ts_node_named_child(node, 0);
    if (check == MpsCheck::negative) return ts_node_named_child(node, 2);
    return TSNode{};
  }
  const MpsCheck check = classify_mps_condition(file.text(ts_node_child_by_field_id(node, f.condition)));
  if (check == MpsCheck::positive) return ts_node_child_by_field_id(node, f.consequence);
  if (check == MpsCheck::negative && node_is(node, "if_statement")) {
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode clause = ts_node_named_child(node, i);
      if (node_is(clause, "else_clause")) return ts_node_child_by_field_id(clause, f.body);
    }
  }
  return TSNode{};
}

bool downcasts_on_mps(const PythonFile& file, TSNode body) {
  std::vector<TSNode> stack{body};
  size_t visited = 0;
  while (!stack.empty() && visited++ < kMaxNodes) {
    const TSNode node = stack.back();
    stack.pop_back();
    if (node_is(node, "function_definition") || node_is(node, "class_definition")) continue;
    if (node_is(node, "if_statement") || node_is(node, "elif_clause") || node_is(node, "conditional_expression")) {
      const TSNode branch = mps_branch(file, node);
      if (!ts_node_is_null(branch) && casts_to_float32(file.text(branch))) return true;
    }
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
  }
  return false;
}

}  // namespace

std::vector<DowncastArgument> mps_downcast_arguments(const PythonFile& file) {
  std::vector<DowncastArgument> out;
  if (file.source().find("mps") == std::string_view::npos) return out;
  const auto& f = PyFields::get();
  std::unordered_set<std::string> helpers;
  std::vector<TSNode> stack{file.root()};
  size_t visited = 0;
  while (!stack.empty() && visited++ < kMaxNodes) {
    const TSNode node = stack.back();
    stack.pop_back();
    if (node_is(node, "function_definition")) {
      const TSNode body = ts_node_child_by_field_id(node, f.body);
      if (file.text(body).find("mps") != std::string_view::npos && downcasts_on_mps(file, body))
        helpers.insert(std::string(file.text(ts_node_child_by_field_id(node, f.name))));
    }
    // Only statements hold definitions: expressions are not walked.
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = count; i > 0; --i) {
      const TSNode child = ts_node_named_child(node, i - 1);
      const std::string_view type = ts_node_type(child);
      if (type.ends_with("definition") || type.ends_with("statement") || type.ends_with("clause") ||
          type == "block" || type == "decorated_definition")
        stack.push_back(child);
    }
  }
  if (helpers.empty()) return out;
  for (const CallSite& call : file.calls()) {
    // `to_device(x, d)`, or a method of the same class: `self.to_device(x, d)`.
    std::string_view name;
    if (node_is(call.function, "identifier")) {
      name = file.text(call.function);
    } else if (node_is(call.function, "attribute")) {
      const std::string_view receiver = file.text(ts_node_child_by_field_id(call.function, f.object));
      if (receiver == "self" || receiver == "cls") name = call.method;
    }
    if (name.empty() || !helpers.count(std::string(name)) || !node_is(call.arguments, "argument_list")) continue;
    const uint32_t count = ts_node_named_child_count(call.arguments);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode arg = ts_node_named_child(call.arguments, i);
      if (node_is(arg, "comment")) continue;
      if (node_is(arg, "keyword_argument")) arg = ts_node_child_by_field_id(arg, f.value);
      if (ts_node_is_null(arg)) continue;
      out.push_back({ts_node_start_byte(arg), ts_node_end_byte(arg), std::string(name)});
    }
  }
  return out;
}

}  // namespace mpsready
