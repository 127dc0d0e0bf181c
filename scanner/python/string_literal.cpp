#include "python/string_literal.h"

#include "python/ts_python.h"

namespace mpsready {
namespace {

std::string single_string(std::string_view source, TSNode node) {
  std::string out;
  uint32_t cursor = 0;
  bool started = false;
  const uint32_t count = ts_node_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_child(node, i);
    const std::string_view type = ts_node_type(child);
    if (type == "string_start") {
      cursor = ts_node_end_byte(child);
      started = true;
    } else if (type == "interpolation") {
      if (started) out.append(source.substr(cursor, ts_node_start_byte(child) - cursor));
      out.append("{}");
      cursor = ts_node_end_byte(child);
    } else if (type == "string_end") {
      if (started && ts_node_start_byte(child) >= cursor)
        out.append(source.substr(cursor, ts_node_start_byte(child) - cursor));
      return out;
    }
  }
  // No string_end (a syntax error): take what follows the start.
  if (started && ts_node_end_byte(node) >= cursor)
    out.append(source.substr(cursor, ts_node_end_byte(node) - cursor));
  return out;
}

}  // namespace

std::optional<std::string> string_literal_content(std::string_view source, TSNode node) {
  if (ts_node_is_null(node)) return std::nullopt;
  const std::string_view type = ts_node_type(node);
  if (type == "string") return single_string(source, node);
  if (type == "concatenated_string") {
    std::string out;
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode child = ts_node_named_child(node, i);
      if (node_is(child, "string")) out += single_string(source, child);
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace mpsready
