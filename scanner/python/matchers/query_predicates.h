#pragma once
// The predicates of tree-sitter query patterns (`#eq?`, `#match?`, ... and mpsready's own
// `#cuda-check?`, `#mentions?`, `#resolves-to?`; docs/rule-format.md), read from a compiled query
// and evaluated on a match. Tree-sitter parses predicates but leaves their evaluation to the caller.
#include <memory>
#include <string>
#include <vector>

#include <re2/re2.h>
#include <tree_sitter/api.h>

namespace mpsready {

class PythonFile;

class PatternPredicates {
 public:
  // Reads the predicates of `pattern` in `query`; throws RuleError with `where` (the rule's
  // query.scm) in front of the message when one is unknown or malformed.
  PatternPredicates(const TSQuery* query, uint32_t pattern, const std::string& where);
  PatternPredicates(PatternPredicates&&) noexcept;
  ~PatternPredicates();

  bool hold(const PythonFile& file, const TSQueryMatch& match) const;

 private:
  struct Predicate;
  static bool holds(const PythonFile& file, const Predicate& pred, TSNode node, const TSQueryMatch& match);
  std::vector<Predicate> predicates_;
};

}  // namespace mpsready
