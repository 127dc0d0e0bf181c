#include "python/guarded_helpers.h"

#include <cctype>
#include <string>
#include <unordered_map>

#include "python/ts_python.h"

namespace mpsready {
namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whole-word occurrences of every word that starts with `_`, in one pass over the source (code,
// comments and strings alike: a name mentioned in a string may be looked up with getattr, so it
// counts against the helper too). Linear, whatever the number of helpers.
std::unordered_map<std::string_view, size_t> private_word_counts(std::string_view source) {
  std::unordered_map<std::string_view, size_t> counts;
  size_t at = 0;
  while (at < source.size()) {
    if (!is_word_char(source[at])) {
      ++at;
      continue;
    }
    const size_t start = at;
    while (at < source.size() && is_word_char(source[at])) ++at;
    if (source[start] == '_') ++counts[source.substr(start, at - start)];
  }
  return counts;
}

}  // namespace

void guard_private_helpers(std::string_view source, const std::vector<TSNode>& definitions,
                           const std::vector<CallSite>& calls, const GuardMap& guards, GuardMap& out) {
  const auto& f = PyFields::get();
  // Calls by the name they call, built once: a file with many helpers and many calls is not
  // compared pair by pair.
  std::unordered_map<std::string_view, std::vector<uint32_t>> calls_by_name;
  for (const CallSite& call : calls)
    if (call.method.size() > 1 && call.method[0] == '_')
      calls_by_name[call.method].push_back(ts_node_start_byte(call.node));
  if (calls_by_name.empty()) return;
  std::unordered_map<std::string_view, size_t> words;
  bool counted = false;
  for (const TSNode definition : definitions) {
    const std::string_view name = node_text(source, ts_node_child_by_field_id(definition, f.name));
    // `_helper`, not `__init__` or `__call__`, which Python calls itself.
    if (name.size() < 2 || name[0] != '_' || (name.size() > 4 && name.substr(0, 2) == "__" &&
                                              name.substr(name.size() - 2) == "__"))
      continue;
    const TSNode body = ts_node_child_by_field_id(definition, f.body);
    if (ts_node_is_null(body)) continue;
    const auto sites = calls_by_name.find(name);
    if (sites == calls_by_name.end()) continue;
    const uint32_t def_start = ts_node_start_byte(definition), def_end = ts_node_end_byte(definition);
    bool all_guarded = true;
    for (const uint32_t at : sites->second) {
      if (at >= def_start && at < def_end) continue;  // it calls itself
      if (!guards.contains(at)) {
        all_guarded = false;
        break;
      }
    }
    if (!all_guarded) continue;
    // The definition's own name plus its calls: any other mention may call it unguarded.
    if (!counted) words = private_word_counts(source), counted = true;
    const auto mentions = words.find(name);
    if (mentions == words.end() || mentions->second != sites->second.size() + 1) continue;
    out.add(ts_node_start_byte(body), ts_node_end_byte(body));
  }
}

}  // namespace mpsready
