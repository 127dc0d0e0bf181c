#pragma once
// The pinned tree-sitter-python grammar and a parser that owns its trees.
#include <cstdint>
#include <memory>
#include <string_view>

#include <tree_sitter/api.h>

namespace mpsready {

const TSLanguage* python_language();

struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

// One per thread: TSParser is not thread-safe, TSLanguage and TSQuery are.
class PythonParser {
 public:
  PythonParser();
  ~PythonParser();
  PythonParser(const PythonParser&) = delete;
  PythonParser& operator=(const PythonParser&) = delete;

  // Returns nullptr if parsing was cancelled by the time limit, or if the text is one that
  // tree-sitter cannot recover from (unparsable_nesting).
  TreePtr parse(std::string_view text, uint64_t timeout_micros);

 private:
  TSParser* parser_;
};

// tree-sitter 0.20 corrupts its heap when error recovery meets more than 65,535 open brackets
// (a file of 70,000 `[`, or of 70,000 `[` closed by `)`). Such text is not Python (CPython stops
// at 200 levels), so it is never handed to tree-sitter. Returns the bracket depth when the text
// has more than kMaxUnbalancedNesting levels of brackets that do not all close in order; else 0.
// Deep brackets that do close in order parse fine and return 0.
inline constexpr size_t kMaxUnbalancedNesting = 50'000;
size_t unparsable_nesting(std::string_view text);

// Field ids of the grammar, looked up once.
struct PyFields {
  TSFieldId function, arguments, object, attribute, name, alias, value, module_name, condition,
      consequence, alternative, body, left, right, argument, operator_, type, definition, parameters;
  static const PyFields& get();
};

inline std::string_view node_text(std::string_view source, TSNode node) {
  const uint32_t start = ts_node_start_byte(node);
  const uint32_t end = ts_node_end_byte(node);
  if (end > source.size() || start > end) return {};
  return source.substr(start, end - start);
}

inline bool node_is(TSNode node, std::string_view type) {
  return !ts_node_is_null(node) && type == ts_node_type(node);
}

}  // namespace mpsready
