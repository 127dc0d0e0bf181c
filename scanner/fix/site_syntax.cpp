#include "fix/site_syntax.h"

#include "python/python_file.h"
#include "python/ts_python.h"

namespace mpsready {

namespace {

bool same_range(TSNode n, uint32_t start, uint32_t end) {
  return ts_node_start_byte(n) == start && ts_node_end_byte(n) == end;
}

// Whether only blanks lie between the line's start and `start`, and only blanks or a comment
// between `end` and the line's end.
bool alone_on_its_lines(std::string_view text, uint32_t start, uint32_t end, std::string& indent) {
  uint32_t line = start;
  while (line > 0 && text[line - 1] != '\n') --line;
  for (uint32_t i = line; i < start; ++i)
    if (text[i] != ' ' && text[i] != '\t') return false;
  indent = std::string(text.substr(line, start - line));
  for (size_t i = end; i < text.size() && text[i] != '\n'; ++i) {
    if (text[i] == '#') break;
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r') return false;
  }
  return true;
}

size_t positional_arguments(TSNode list) {
  size_t n = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(list); ++i) {
    const TSNode child = ts_node_named_child(list, i);
    if (!node_is(child, "keyword_argument") && !node_is(child, "comment")) ++n;
  }
  return n;
}

}  // namespace

SiteSyntax site_syntax(std::string_view text, TSNode root, uint32_t start, uint32_t end) {
  SiteSyntax out;
  TSNode node = ts_node_descendant_for_byte_range(root, start, end);
  if (ts_node_is_null(node) || !same_range(node, start, end)) return out;
  // The outermost node of exactly this range (a call inside its expression statement).
  TSNode parent = ts_node_parent(node);
  while (!ts_node_is_null(parent) && same_range(parent, start, end)) {
    if (node_is(parent, "expression_statement") && ts_node_named_child_count(parent) == 1)
      out.statement = alone_on_its_lines(text, start, end, out.indent);
    node = parent;
    parent = ts_node_parent(node);
  }
  if (out.statement || ts_node_is_null(parent)) return out;
  const PyFields& f = PyFields::get();
  if (node_is(node, "keyword_argument")) {
    out.argument = true;
  } else if (node_is(parent, "keyword_argument")) {
    out.argument = ts_node_eq(ts_node_child_by_field_id(parent, f.value), node);
  } else if (node_is(parent, "argument_list")) {
    out.argument = positional_arguments(parent) == 1;
  } else if (node_is(parent, "assignment")) {
    out.value = ts_node_eq(ts_node_child_by_field_id(parent, f.right), node);
  } else if (node_is(parent, "pair")) {
    out.value = ts_node_eq(ts_node_child_by_field_id(parent, f.value), node);
  }
  return out;
}

std::optional<std::pair<uint32_t, uint32_t>> device_call_around(std::string_view text, TSNode root, uint32_t start,
                                                                uint32_t end, std::string_view module) {
  TSNode node = ts_node_descendant_for_byte_range(root, start, end);
  // The smallest node spanning the site may sit inside it (a string's content): climb to the
  // node that is exactly the site.
  while (!ts_node_is_null(node) && (ts_node_start_byte(node) != start || ts_node_end_byte(node) != end)) {
    if (ts_node_start_byte(node) < start || ts_node_end_byte(node) > end) return std::nullopt;
    node = ts_node_parent(node);
  }
  if (ts_node_is_null(node)) return std::nullopt;
  const TSNode arguments = ts_node_parent(node);
  if (!node_is(arguments, "argument_list") || ts_node_named_child_count(arguments) != 1) return std::nullopt;
  const TSNode call = ts_node_parent(arguments);
  if (!node_is(call, "call")) return std::nullopt;
  const std::string callee = std::string(module) + ".device";
  if (node_text(text, ts_node_child_by_field_id(call, PyFields::get().function)) != callee) return std::nullopt;
  if (node_text(text, call).find('\n') != std::string_view::npos) return std::nullopt;
  return std::make_pair(ts_node_start_byte(call), ts_node_end_byte(call));
}

std::optional<int> cuda_required_before(const PythonFile& file, uint32_t site) {
  for (TSNode n = ts_node_descendant_for_byte_range(file.root(), site, site); !ts_node_is_null(n); n = ts_node_parent(n)) {
    const TSNode parent = ts_node_parent(n);
    if (!node_is(parent, "block") && !node_is(parent, "module")) continue;
    for (TSNode before = ts_node_prev_named_sibling(n); !ts_node_is_null(before); before = ts_node_prev_named_sibling(before)) {
      if (!node_is(before, "assert_statement") || ts_node_named_child_count(before) == 0) continue;
      if (file.cuda_check(ts_node_named_child(before, 0)) == CudaCheck::positive)
        return static_cast<int>(ts_node_start_point(before).row) + 1;
    }
  }
  return std::nullopt;
}

std::optional<std::string> module_binding(std::string_view text, TSNode root, std::string_view module) {
  const PyFields& f = PyFields::get();
  std::optional<std::string> alias;
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    const TSNode statement = ts_node_named_child(root, i);
    if (!node_is(statement, "import_statement")) continue;
    for (uint32_t j = 0; j < ts_node_named_child_count(statement); ++j) {
      const TSNode item = ts_node_named_child(statement, j);
      if (node_is(item, "dotted_name")) {
        const TSNode first = ts_node_named_child(item, 0);
        if (node_text(text, first) == module) return std::string(module);
      } else if (node_is(item, "aliased_import") && !alias) {
        if (node_text(text, ts_node_child_by_field_id(item, f.name)) == module)
          alias = std::string(node_text(text, ts_node_child_by_field_id(item, f.alias)));
      }
    }
  }
  return alias;
}

}  // namespace mpsready
