#include "python/import_context.h"

#include "core/source_text.h"
#include "python/python_file.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

// Ancestors looked at: real code nests far less; a bound on hostile input.
constexpr int kMaxAncestors = 256;
constexpr size_t kMaxBranchText = 80;

std::string one_line(std::string_view text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    const bool ws = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (ws) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return shorten_utf8(out, kMaxBranchText);
}

std::string name_of(const PythonFile& file, TSNode definition) {
  return std::string(file.text(ts_node_child_by_field_id(definition, PyFields::get().name)));
}

}  // namespace

bool is_main_check(const PythonFile& file, TSNode condition) {
  const std::string_view text = file.text(condition);
  return text.find("__name__") != std::string_view::npos && text.find("__main__") != std::string_view::npos;
}

ImportContext import_context(const PythonFile& file, TSNode statement) {
  const auto& f = PyFields::get();
  ImportContext out;
  TSNode child = statement;
  TSNode node = ts_node_parent(statement);
  for (int i = 0; i < kMaxAncestors && !ts_node_is_null(node); ++i) {
    const std::string_view type = ts_node_type(node);
    if (type == "function_definition" && !out.lazy) {
      out.lazy = true;
      out.function = name_of(file, node);
      // A method: name its class too (`Engine.export`).
      TSNode up = ts_node_parent(node);
      if (node_is(up, "block")) up = ts_node_parent(up);
      if (node_is(up, "decorated_definition")) up = ts_node_parent(ts_node_parent(up));
      if (node_is(up, "class_definition")) out.function = name_of(file, up) + "." + out.function;
    } else if (type == "if_statement" || type == "elif_clause") {
      const TSNode condition = ts_node_child_by_field_id(node, f.condition);
      const bool via_body = ts_node_eq(child, ts_node_child_by_field_id(node, f.consequence));
      if (via_body) {
        const std::string_view text = file.text(condition);
        const bool always = text == "True" || text == "1";  // always taken: no branch
        if (is_main_check(file, condition)) out.in_main_block = true;
        else if (!always && out.branch.empty() && file.cuda_check(condition) == CudaCheck::none)
          out.branch = one_line(file.text(condition));
      }
    } else if (type == "else_clause" && out.branch.empty()) {
      const TSNode owner = ts_node_parent(node);
      const TSNode condition = ts_node_child_by_field_id(owner, f.condition);
      if (node_is(owner, "if_statement") && !is_main_check(file, condition) &&
          file.cuda_check(condition) == CudaCheck::none)
        out.branch = "not (" + one_line(file.text(condition)) + ")";
    } else if (type == "try_statement") {
      if (ts_node_eq(child, ts_node_child_by_field_id(node, f.body)) && catches_import_failure(file.source(), node))
        out.caught = true;
    } else if (type == "except_clause" && out.branch.empty()) {
      out.branch = "except " + one_line(file.text(ts_node_named_child(node, 0)));
    }
    child = node;
    node = ts_node_parent(node);
  }
  return out;
}

}  // namespace mpsready
