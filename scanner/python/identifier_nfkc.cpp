#include "python/identifier_nfkc.h"

#include <cstring>
#include <unordered_set>

#include "python/nfkc.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

bool is_keyword(std::string_view name) {
  static const std::unordered_set<std::string_view> keywords = {
      "False", "None",   "True",    "and",      "as",       "assert", "async", "await",
      "break", "class",  "continue", "def",     "del",      "elif",   "else",  "except",
      "finally", "for",  "from",    "global",   "if",       "import", "in",    "is",
      "lambda", "nonlocal", "not",  "or",       "pass",     "raise",  "return", "try",
      "while", "with",   "yield"};
  return keywords.count(name) != 0;
}

}  // namespace

std::optional<std::string> normalize_identifiers(std::string_view source, TSNode root) {
  std::optional<std::string> out;
  // An iterative walk over every node: identifiers are leaves.
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    const TSNode node = ts_tree_cursor_current_node(&cursor);
    if (std::strcmp(ts_node_type(node), "identifier") == 0) {
      const std::string_view name = node_text(source, node);
      if (has_non_ascii(name)) {
        const std::optional<std::string> normal = nfkc(name);
        if (normal && *normal != name && normal->size() <= name.size() && !is_keyword(*normal)) {
          if (!out) out.emplace(source);
          const size_t at = ts_node_start_byte(node);
          out->replace(at, normal->size(), *normal);
          out->replace(at + normal->size(), name.size() - normal->size(), name.size() - normal->size(), ' ');
        }
      }
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

}  // namespace mpsready
