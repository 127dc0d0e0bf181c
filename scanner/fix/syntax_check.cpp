#include "fix/syntax_check.h"

#include "python/ts_python.h"

namespace mpsready {

bool python_parses(std::string_view text) {
  if (unparsable_nesting(text)) return false;
  PythonParser parser;
  const TreePtr tree = parser.parse(text, /*timeout_micros=*/10'000'000);
  if (!tree) return false;
  // has_error covers ERROR and MISSING nodes anywhere below the root.
  return !ts_node_has_error(ts_tree_root_node(tree.get()));
}

}  // namespace mpsready
