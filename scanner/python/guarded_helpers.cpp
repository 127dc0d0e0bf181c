#include "python/guarded_helpers.h"

#include <cctype>
#include <string>

#include "python/ts_python.h"

namespace mpsready {
namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whole-word occurrences of `name` in the source (code, comments and strings alike: a name
// mentioned in a string may be looked up with getattr, so it counts against the helper too).
size_t occurrences(std::string_view source, std::string_view name) {
  size_t count = 0;
  for (size_t at = source.find(name); at != std::string_view::npos; at = source.find(name, at + name.size())) {
    const bool starts = at == 0 || !is_word_char(source[at - 1]);
    const bool ends = at + name.size() >= source.size() || !is_word_char(source[at + name.size()]);
    if (starts && ends) ++count;
  }
  return count;
}

}  // namespace

void guard_private_helpers(std::string_view source, const std::vector<TSNode>& definitions,
                           const std::vector<CallSite>& calls, const GuardMap& guards, GuardMap& out) {
  const auto& f = PyFields::get();
  for (const TSNode definition : definitions) {
    const std::string_view name = node_text(source, ts_node_child_by_field_id(definition, f.name));
    // `_helper`, not `__init__` or `__call__`, which Python calls itself.
    if (name.size() < 2 || name[0] != '_' || (name.size() > 4 && name.substr(0, 2) == "__" &&
                                              name.substr(name.size() - 2) == "__"))
      continue;
    const TSNode body = ts_node_child_by_field_id(definition, f.body);
    if (ts_node_is_null(body)) continue;
    const uint32_t def_start = ts_node_start_byte(definition), def_end = ts_node_end_byte(definition);
    size_t call_count = 0;
    bool all_guarded = true;
    for (const CallSite& call : calls) {
      if (call.method != name) continue;
      const uint32_t at = ts_node_start_byte(call.node);
      ++call_count;
      if (at >= def_start && at < def_end) continue;  // it calls itself
      if (!guards.contains(at)) {
        all_guarded = false;
        break;
      }
    }
    if (!all_guarded || call_count == 0) continue;
    // The definition's own name plus its calls: any other mention may call it unguarded.
    if (occurrences(source, name) != call_count + 1) continue;
    out.add(ts_node_start_byte(body), ts_node_end_byte(body));
  }
}

}  // namespace mpsready
