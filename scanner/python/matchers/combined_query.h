#pragma once
// python.query rules, compiled into one tree-sitter query for the whole scan: each rule's
// query.scm becomes a range of patterns of the combined query, so a file is walked by one query
// cursor for all of them instead of one per rule (the cursor walk was a quarter of the Python
// front end's time with a cursor per rule). Built once, then shared read-only by all workers.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <tree_sitter/api.h>

#include "python/matchers/python_matcher.h"
#include "python/matchers/query_predicates.h"
#include "rules/rule.h"

namespace mpsready {

class PythonFile;

class CombinedQuery {
 public:
  CombinedQuery();
  ~CombinedQuery();
  CombinedQuery(const CombinedQuery&) = delete;
  CombinedQuery& operator=(const CombinedQuery&) = delete;

  // Adds a rule's python.query matcher and returns its slot. Throws RuleError when the params are
  // wrong, the rule has no query.scm or the query is beyond the limits of query_limits.h.
  uint32_t add(const nlohmann::json& params, const Rule& rule);
  // Compiles every added query into one. Throws RuleError naming the rule and line at fault.
  void compile();

  uint32_t slots() const { return static_cast<uint32_t>(parts_.size()); }
  // Runs the query once over `file`. out[slot] receives the matches of that slot's rule, for each
  // slot with wanted[slot]; the other slots' predicates are not evaluated.
  void run(const PythonFile& file, const std::vector<bool>& wanted, std::vector<std::vector<RawMatch>>& out) const;

 private:
  struct Part {
    const Rule* rule;
    std::string source;
    uint32_t first_pattern = 0;
    // `"report": "first-read-of-target"`: the finding is not the match but the first later
    // occurrence of @target's text in the same function; none when that occurrence sets it.
    bool first_read_of_target = false;
  };
  struct QueryDeleter {
    void operator()(TSQuery* q) const { ts_query_delete(q); }
  };

  // The rule whose query makes the combined query fail to compile, with its own error.
  [[noreturn]] void report_compile_error(uint32_t error_offset, TSQueryError error) const;

  std::vector<Part> parts_;
  std::unique_ptr<TSQuery, QueryDeleter> query_;
  std::vector<uint32_t> slot_of_pattern_;
  std::vector<PatternPredicates> predicates_;  // by pattern
  uint32_t finding_ = UINT32_MAX;
  uint32_t callee_ = UINT32_MAX;
  // @target: the name a matched statement sets, for the message's `{target}`.
  uint32_t target_ = UINT32_MAX;
};

}  // namespace mpsready
